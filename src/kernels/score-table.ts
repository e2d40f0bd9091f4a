/**
 * @module kernels/score-table
 * The fitted table of the score model (kernels/scoring documents the model).
 * Written by `bun run bench/calibration.ts --reuse --trades <file> --fit-score
 * src/kernels/score-table.ts`; do not edit by hand. The form (features, rank
 * rule, band shares) is the table's own `features`, `rank` and `bandShares`; a refit
 * keeps it (docs/calibration.md says how it was chosen).
 *
 * Fitted on the 204098 entered trades detected 2004-12-28 .. 2016-12-30
 * of the replayed real history (shared/data daily_yf_dieperdev, split-adjusted daily bars to 2024-03-08; S&P 500 members of each date (fja05680/sp500) that the data has; SPY (daily_marketlab) as benchmark); wins 25.6%,
 * losses 4.3%, scratches 70.1%. Method: logistic regressions (Newton–Raphson,
 * ridge λ = 1 on the slopes) of a win and of a loss, a ridge regression (λ = 1) of R over
 * the scratched trades, on the features patternQuality, breakoutVolume, rsRank, trendTemplate, proximity, tightness, regime, short, pattern:cup_with_handle, pattern:double_bottom, pattern:vcp, pattern:bull_flag, pattern:high_tight_flag, pattern:ascending_triangle, pattern:bear_flag, pattern:descending_triangle, pattern:range_breakout, pattern:range_breakdown, pattern:donchian_55, pattern:new_high_52w, pattern:gap_and_go;
 * the training mean R of wins and losses by pattern and direction (cells of ≥ 20 trades);
 * the 101 percentile knots of E[R], P(win) and their rank (rule `min`) over the
 * training trades; the band floors 55, 70, 85 at the training shares 0.65, 0.9, 0.98 of the rank.
 * Nothing detected after 2016-12-30 was used (docs/calibration.md).
 */
export const SCORE_TABLE = {
 "fittedOn": {
  "from": "2004-12-28",
  "to": "2016-12-30",
  "trades": 204098,
  "winRate": 0.2557,
  "lossRate": 0.0429,
  "scratchRate": 0.7013
 },
 "features": [
  "patternQuality",
  "breakoutVolume",
  "rsRank",
  "trendTemplate",
  "proximity",
  "tightness",
  "regime",
  "short",
  "pattern:cup_with_handle",
  "pattern:double_bottom",
  "pattern:vcp",
  "pattern:bull_flag",
  "pattern:high_tight_flag",
  "pattern:ascending_triangle",
  "pattern:bear_flag",
  "pattern:descending_triangle",
  "pattern:range_breakout",
  "pattern:range_breakdown",
  "pattern:donchian_55",
  "pattern:new_high_52w",
  "pattern:gap_and_go"
 ],
 "win": {
  "intercept": -1.154992,
  "coefficients": [
   0.151814, 0.582127, 0.043998, 0.018162, -0.196047, 0.329526, -0.034727, -0.528506, -0.77764, -0.19886, -0.421659, -0.371582,
   -1.183914, 0.065952, -0.665647, 0.262677, 0.145503, 0.18557, 0.075857, 0.081513, 0.360649
  ]
 },
 "loss": {
  "intercept": -6.40389,
  "coefficients": [
   1.41703, 0.488854, -0.076057, 0.411336, 0.990036, 0.332623, 0.087306, 0.001328, 1.637513, -0.33443, 1.640629, 2.910723,
   -0.369138, 1.131991, 3.167301, 0.619677, 1.113823, 1.034601, 0.587754, 0.833187, 0.709662
  ]
 },
 "scratchR": {
  "intercept": -0.143243,
  "coefficients": [
   -0.163334, -0.015647, 0.006478, 0.005654, -0.126834, -0.076626, -0.01368, 0.036207, -0.12689, 0.02837, -0.150389, -0.463357,
   -0.072001, -0.127678, -0.449894, -0.134209, -0.168693, -0.194616, -0.14152, -0.167574, -0.173711
  ]
 },
 "winR": {
  "descending_triangle short": 1.2066,
  "bear_flag short": 4.1251,
  "range_breakdown short": 1.3875,
  "vcp long": 3.0568,
  "range_breakout long": 1.4642,
  "donchian_55 short": 1.367,
  "flat_base long": 1.1542,
  "donchian_55 long": 1.4136,
  "new_high_52w long": 1.4106,
  "bull_flag long": 3.9167,
  "ascending_triangle long": 1.3968,
  "gap_and_go long": 1.286,
  "cup_with_handle long": 4.1717,
  "double_bottom long": 1.8898
 },
 "winRAll": 1.6899,
 "lossR": {
  "new_high_52w long": -1.0653,
  "range_breakdown short": -1.0741,
  "donchian_55 short": -1.0826,
  "donchian_55 long": -1.1223,
  "vcp long": -1.2075,
  "bear_flag short": -1.0352,
  "bull_flag long": -1.0609,
  "range_breakout long": -1.135,
  "flat_base long": -1.0483,
  "cup_with_handle long": -1.1427,
  "ascending_triangle long": -1.187,
  "descending_triangle short": -1.0296,
  "gap_and_go long": -1.0318,
  "double_bottom long": -1.1942
 },
 "lossRAll": -1.1094,
 "expectedRKnots": [
  -0.475689, -0.36563, -0.312719, -0.226932, -0.189616, -0.176744, -0.16762, -0.160012, -0.15333, -0.147178, -0.141455, -0.135925,
  -0.130435, -0.124963, -0.119558, -0.114094, -0.10867, -0.103065, -0.09716, -0.091313, -0.085254, -0.078906, -0.07264, -0.066031,
  -0.059713, -0.053459, -0.04729, -0.041521, -0.036293, -0.03144, -0.027007, -0.023, -0.019126, -0.015502, -0.012114, -0.008895,
  -0.005547, -0.002545, 0.000567, 0.003484, 0.00651, 0.009154, 0.011864, 0.014495, 0.017203, 0.019809, 0.02235, 0.025028,
  0.027543, 0.03002, 0.032687, 0.035296, 0.037822, 0.040394, 0.043017, 0.045569, 0.048232, 0.050895, 0.053633, 0.05629,
  0.058914, 0.061722, 0.064364, 0.067026, 0.06974, 0.072421, 0.075132, 0.077835, 0.080635, 0.083508, 0.086385, 0.089416,
  0.092435, 0.095451, 0.098581, 0.101818, 0.104984, 0.108259, 0.111648, 0.115171, 0.118828, 0.122675, 0.126338, 0.130662,
  0.135301, 0.140147, 0.14513, 0.150659, 0.156689, 0.163553, 0.171102, 0.17952, 0.18865, 0.199427, 0.211667, 0.225754,
  0.242515, 0.2628, 0.287189, 0.329273, 0.914099
 ],
 "winKnots": [
  0.07247, 0.084334, 0.090319, 0.103427, 0.148812, 0.164068, 0.169488, 0.173185, 0.176221, 0.179037, 0.181688, 0.184196,
  0.186526, 0.188703, 0.190833, 0.192741, 0.194607, 0.196369, 0.198123, 0.199785, 0.201442, 0.20312, 0.204634, 0.206107,
  0.207534, 0.208923, 0.210382, 0.211815, 0.213237, 0.21465, 0.216115, 0.217547, 0.219037, 0.220522, 0.222119, 0.223774,
  0.225457, 0.227277, 0.229229, 0.231321, 0.233553, 0.236078, 0.23884, 0.24195, 0.245282, 0.248821, 0.252516, 0.255947,
  0.259179, 0.262152, 0.264846, 0.267204, 0.269478, 0.271551, 0.273595, 0.275504, 0.27727, 0.279014, 0.280676, 0.282235,
  0.283812, 0.285354, 0.286772, 0.288156, 0.289525, 0.290883, 0.292119, 0.293355, 0.294595, 0.295806, 0.297036, 0.298233,
  0.299415, 0.300576, 0.30179, 0.302942, 0.304099, 0.305238, 0.306397, 0.307593, 0.308865, 0.310094, 0.311364, 0.312684,
  0.314042, 0.31546, 0.316884, 0.318417, 0.320008, 0.321702, 0.323543, 0.325644, 0.327851, 0.330591, 0.333748, 0.337743,
  0.343433, 0.354969, 0.383218, 0.426766, 0.53716
 ],
 "rankKnots": [
  0, 0.008597, 0.015805, 0.026731, 0.037383, 0.041333, 0.04715, 0.051707, 0.057212, 0.062455, 0.067784, 0.073118,
  0.078721, 0.08419, 0.089981, 0.095959, 0.102132, 0.108267, 0.114442, 0.120928, 0.127391, 0.134072, 0.140624, 0.147452,
  0.154211, 0.160988, 0.168234, 0.175299, 0.18246, 0.189678, 0.197123, 0.204747, 0.212101, 0.21976, 0.227462, 0.23531,
  0.243205, 0.251499, 0.259448, 0.267577, 0.275596, 0.283504, 0.291411, 0.299577, 0.307433, 0.315707, 0.323668, 0.331655,
  0.339654, 0.347713, 0.3559, 0.364335, 0.372778, 0.381213, 0.389597, 0.398294, 0.406807, 0.415541, 0.424213, 0.432974,
  0.441661, 0.450558, 0.459436, 0.468253, 0.477081, 0.486175, 0.495434, 0.504691, 0.513873, 0.523193, 0.532981, 0.542694,
  0.552761, 0.562725, 0.572996, 0.58336, 0.594216, 0.605037, 0.616056, 0.627458, 0.638956, 0.650861, 0.663142, 0.675353,
  0.687546, 0.700656, 0.714311, 0.727964, 0.741851, 0.756456, 0.771223, 0.786914, 0.803129, 0.819902, 0.83755, 0.856509,
  0.876805, 0.899448, 0.92537, 0.967127, 0.992724
 ],
 "rank": "min",
 "bandShares": [0.65, 0.9, 0.98]
} as const;
