// The colour scheme: the system's unless the visitor picked one with this button (kept in
// localStorage). The shell script applies the choice and handles the clicks; the stylesheet
// names the scheme the button switches to, and shows the button only where the script runs
// (app/components/shell-script.ts).

export function ThemeSwitch() {
  return (
    <button type="button" className="secondary theme-switch">
      <span className="to-dark">Dark mode</span>
      <span className="to-light">Light mode</span>
    </button>
  );
}
