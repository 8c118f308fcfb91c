'use client';

import { useActionState } from 'react';
import { Field, FormMessage } from '../../components/form-bits';
import { createGoalAction } from './actions';
import { submitted, type FormState } from '@/lib/web/account/forms';

/** Sets a goal; works as a plain form post without JavaScript. */
export function GoalForm({ languages, projects }: { languages: string[]; projects: string[] }) {
  const [state, action, pending] = useActionState<FormState, FormData>(createGoalAction, {});
  return (
    <form action={action} aria-label="Set a goal">
      <div className="grid">
        <div>
          <Field name="period" label="Per" state={state}>
            {(p) => (
              <select {...p} defaultValue={submitted(state, 'period') ?? 'day'}>
                <option value="day">Day</option>
                <option value="week">Week (Monday to Sunday)</option>
              </select>
            )}
          </Field>
          <fieldset className="duration">
            <legend>Time</legend>
            <Field name="hours" label="Hours" state={state}>
              {(p) => <input {...p} type="number" min={0} step={1} inputMode="numeric" defaultValue={submitted(state, 'hours') ?? '1'} />}
            </Field>
            <Field name="minutes" label="Minutes" state={state}>
              {(p) => <input {...p} type="number" min={0} max={59} step={1} inputMode="numeric" defaultValue={submitted(state, 'minutes') ?? '0'} />}
            </Field>
          </fieldset>
        </div>
        <div>
          <Field name="language" label="Only in this language (optional)" state={state}>
            {(p) => <input {...p} type="text" list="goal-languages" maxLength={64} defaultValue={submitted(state, 'language')} />}
          </Field>
          <Field name="project" label="Only on this project (optional)" state={state}>
            {(p) => <input {...p} type="text" list="goal-projects" maxLength={200} defaultValue={submitted(state, 'project')} />}
          </Field>
          <Field name="title" label="Title (optional)" state={state}>
            {(p) => <input {...p} type="text" maxLength={100} defaultValue={submitted(state, 'title')} />}
          </Field>
        </div>
      </div>
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
      <button type="submit" disabled={pending}>
        Set goal
      </button>
      <FormMessage state={state} />
    </form>
  );
}
