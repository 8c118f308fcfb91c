'use client';

import { useActionState, type ReactNode } from 'react';
import { FormMessage } from '../../components/form-bits';
import { createGoalAction, updateGoalAction } from './actions';
import styles from './goals.module.css';
import { submitted, type FormState } from '@/lib/web/account/forms';

// The goal forms: set one, and edit each (one form per goal on the page, so each input's id
// carries the form's prefix). Both work as plain form posts without JavaScript.

/** A goal as its edit form starts from. */
export interface GoalValues {
  id: string;
  period: 'day' | 'week';
  seconds: number;
  language: string | null;
  project: string | null;
  /** The owner's own title; null: made from the goal. */
  custom_title: string | null;
  ignore_weekends: boolean;
}

/** A labelled input with its error beside it (as form-bits' Field), its id under `prefix`. */
function GoalField({ prefix, name, label, state, children }: { prefix: string; name: string; label: string; state: FormState; children: (props: { id: string; name: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) => ReactNode }) {
  const id = `${prefix}-${name}`;
  const error = state.fieldErrors?.[name];
  return (
    <div>
      <label htmlFor={id}>{label}</label>
      {children({ id, name, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined })}
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** The fields of a goal: after a refused submit, what was sent; else `start`. */
function GoalFields({ prefix, state, start }: { prefix: string; state: FormState; start?: GoalValues }) {
  const value = (name: string, initial: string | undefined) => (state.values ? submitted(state, name) : initial);
  const hours = start ? String(Math.floor(start.seconds / 3600)) : '1';
  const minutes = start ? String(Math.floor((start.seconds % 3600) / 60)) : '0';
  const weekends = state.values ? state.values.ignore_weekends === true : (start?.ignore_weekends ?? false);
  return (
    <div className="grid">
      <div>
        <GoalField prefix={prefix} name="period" label="Per" state={state}>
          {(p) => (
            <select {...p} defaultValue={value('period', start?.period) ?? 'day'}>
              <option value="day">Day</option>
              <option value="week">Week (Monday to Sunday)</option>
            </select>
          )}
        </GoalField>
        <fieldset className="duration">
          <legend>Time</legend>
          <GoalField prefix={prefix} name="hours" label="Hours" state={state}>
            {(p) => <input {...p} type="number" min={0} step={1} inputMode="numeric" defaultValue={value('hours', hours)} />}
          </GoalField>
          <GoalField prefix={prefix} name="minutes" label="Minutes" state={state}>
            {(p) => <input {...p} type="number" min={0} max={59} step={1} inputMode="numeric" defaultValue={value('minutes', minutes)} />}
          </GoalField>
        </fieldset>
        <label className="check">
          <input type="checkbox" name="ignore_weekends" defaultChecked={weekends} />
          <span>Ignore weekends (a day goal skips Saturdays and Sundays; a week goal counts no time on them)</span>
        </label>
      </div>
      <div>
        <GoalField prefix={prefix} name="language" label="Only in this language (optional)" state={state}>
          {(p) => <input {...p} type="text" list="goal-languages" maxLength={64} defaultValue={value('language', start?.language ?? undefined)} />}
        </GoalField>
        <GoalField prefix={prefix} name="project" label="Only on this project (optional)" state={state}>
          {(p) => <input {...p} type="text" list="goal-projects" maxLength={200} defaultValue={value('project', start?.project ?? undefined)} />}
        </GoalField>
        <GoalField prefix={prefix} name="title" label="Title (optional)" state={state}>
          {(p) => <input {...p} type="text" maxLength={100} defaultValue={value('title', start?.custom_title ?? undefined)} />}
        </GoalField>
      </div>
    </div>
  );
}

/** The names the language and project fields suggest (the owner's recent ones), once a page. */
export function GoalSuggestions({ languages, projects }: { languages: string[]; projects: string[] }) {
  return (
    <>
      <datalist id="goal-languages">
        {languages.map((l) => (
          <option key={l} value={l} />
        ))}
      </datalist>
      <datalist id="goal-projects">
        {projects.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
    </>
  );
}

/** Sets a goal. */
export function GoalForm() {
  const [state, action, pending] = useActionState<FormState, FormData>(createGoalAction, {});
  return (
    <form action={action} aria-label="Set a goal">
      <GoalFields prefix="f" state={state} />
      <button type="submit" disabled={pending}>
        Set goal
      </button>
      <FormMessage state={state} />
    </form>
  );
}

/** Edits one goal, behind a disclosure under its history. */
export function EditGoalForm({ goal, title }: { goal: GoalValues; title: string }) {
  const [state, action, pending] = useActionState<FormState, FormData>(updateGoalAction, {});
  return (
    <details className={styles.edit} open={state.fieldErrors !== undefined && Object.keys(state.fieldErrors).length > 0 ? true : undefined}>
      <summary>Edit this goal</summary>
      <form action={action} aria-label={`Edit goal ${title}`}>
        <input type="hidden" name="id" value={goal.id} />
        <GoalFields prefix={`edit-${goal.id}`} state={state} start={goal} />
        <button type="submit" disabled={pending}>
          Save goal
        </button>
        <FormMessage state={state} />
      </form>
    </details>
  );
}
