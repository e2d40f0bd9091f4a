/**
 * @module providers/polygon/conditions
 * Polygon's (Massive's) trade conditions as the SIPs' letters. Polygon sends
 * a trade's sale conditions as its own numeric ids (`c` on a `T` event, e.g.
 * `[14, 41]`) and documents each id with the SIP's code it stands for (the
 * `sip_mapping` of `/v3/reference/conditions`; the glossary,
 * polygon.io/glossary/us/stocks/conditions-indicators). Turned into the
 * letters, a Polygon trade meets the same rule for which trades count in a
 * bar as an Alpaca one (providers/live/trade-minutes `countsInBar`: the SIPs'
 * exclusion list as Alpaca applies it), with no second table to keep.
 *
 * The ids with a SIP letter, from Polygon's glossary: 0 Regular Sale `@`,
 * 1 Acquisition `A`, 2 Average Price Trade `W`, 4 Bunched Trade `B`,
 * 5 Bunched Sold Trade `G`, 7 Cash Sale `C`, 8 Closing Prints `6`, 9 Cross
 * Trade `X`, 10 Derivatively Priced `4`, 11 Distribution `D`, 12 Form T `T`,
 * 13 Extended Trading Hours (Sold Out of Sequence) `U`, 14 Intermarket Sweep
 * `F`, 15 Market Center Official Close `M`, 16 Market Center Official Open
 * `Q`, 20 Next Day `N`, 21 Price Variation Trade `H`, 22 Prior Reference
 * Price `P`, 23 Rule 155 Trade `K`, 25 Opening Prints `O`, 27 Stopped Stock
 * `1`, 28 Re-Opening Prints `5`, 29 Seller `R`, 30 Sold Last `L`, 33 Sold
 * (Out of Sequence) `Z`, 34 Split Trade `S`, 36 Yellow Flag Regular Trade
 * `Y`, 37 Odd Lot Trade `I`, 38 Corrected Consolidated Close `9`,
 * 52 Contingent Trade `V`, 53 Qualified Contingent Trade `7`. The others
 * (41 Trade Thru Exempt, an overlay on a sale condition; legacy and
 * placeholder ids) have no letter: they are kept as `polygon:<id>`, which no
 * exclusion names, so they never keep a trade out of a bar by themselves.
 *
 * Where the SIPs' letters differ (Polygon's 4 "Bunched Trade" is UTP's `B`,
 * which CTA used for average-price trades), the letter decides, as it does
 * for the same trade reaching us from Alpaca.
 */

const SIP_LETTER: Readonly<Record<number, string>> = {
  0: '@',
  1: 'A',
  2: 'W',
  4: 'B',
  5: 'G',
  7: 'C',
  8: '6',
  9: 'X',
  10: '4',
  11: 'D',
  12: 'T',
  13: 'U',
  14: 'F',
  15: 'M',
  16: 'Q',
  20: 'N',
  21: 'H',
  22: 'P',
  23: 'K',
  25: 'O',
  27: '1',
  28: '5',
  29: 'R',
  30: 'L',
  33: 'Z',
  34: 'S',
  36: 'Y',
  37: 'I',
  38: '9',
  52: 'V',
  53: '7',
};

/** A trade's Polygon condition ids as SIP letters (`polygon:<id>` for an id without one); undefined when it sent none. */
export function sipConditions(ids: unknown): string[] | undefined {
  if (!Array.isArray(ids)) return undefined;
  return ids.map((id) => SIP_LETTER[Number(id)] ?? `polygon:${String(id)}`);
}
