/**
 * @module console/app/parts/form
 * The pieces every account form and list is made of, written once: a form
 * that does one write (its labelled fields, a primary button disabled while
 * the write runs, the write's problem under it), a labelled field, the
 * options of a choice, and a list as loaded (loading or its problem, an empty
 * line, or its items).
 *
 * @example
 * <ActionForm label="New watchlist" submit="Create watchlist" action={action} onSubmit={create}>
 *   <Field label="Name"><input name="name" required /></Field>
 * </ActionForm>
 * <Listed items={list.data?.items} error={list.error} retry={list.reload} what="your watchlists" empty="No watchlist yet.">
 *   {(items) => <ul>…</ul>}
 * </Listed>
 */
import type { ComponentChildren } from 'preact';
import { Pending, Problem } from './problem';
import type { useAction } from './use-action';

/** A form for one write: `children` (its fields), then its submit button (`submit`, disabled while busy) and `after`; the write's problem below. */
export function ActionForm({
  label,
  submit,
  action,
  onSubmit,
  after,
  children,
}: {
  label: string;
  submit: ComponentChildren;
  action: ReturnType<typeof useAction>;
  onSubmit: (event: Event) => void;
  after?: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <>
      <form class="stack" onSubmit={onSubmit} aria-label={label}>
        {children}
        <button type="submit" class="primary" disabled={action.busy}>
          {submit}
        </button>
        {after}
      </form>
      {action.error !== undefined && <Problem error={action.error} />}
    </>
  );
}

/** A field with its label (the label wraps it, so it names it for screen readers). */
export function Field({ label, children }: { label: ComponentChildren; children: ComponentChildren }) {
  return (
    <label>
      {label}
      {children}
    </label>
  );
}

/** The options of a choice: each value, written by `text` (as it is by default), `selected` chosen. */
export function Choices({ values, text = (value) => value, selected }: { values: readonly string[]; text?: (value: string) => string; selected?: string }) {
  return (
    <>
      {values.map((value) => (
        <option key={value} value={value} selected={selected === undefined ? undefined : value === selected}>
          {text(value)}
        </option>
      ))}
    </>
  );
}

/** A list as loaded: loading (or its problem, with a retry), `empty` when it has no item, else `children(items)`. */
export function Listed<T>({
  items,
  error,
  retry,
  what,
  empty,
  children,
}: {
  items: T[] | undefined;
  error: unknown;
  retry: () => void;
  what: string;
  empty: ComponentChildren;
  children: (items: T[]) => ComponentChildren;
}) {
  if (!items) return <Pending what={what} error={error} retry={retry} />;
  if (items.length === 0) return <p class="muted">{empty}</p>;
  return <>{children(items)}</>;
}
