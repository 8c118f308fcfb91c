import { priceText, type PlanView } from '@/lib/web/public/pricing';
import styles from './signup.module.css';

/** What choosing a plan on the pricing page means for a new account: paid plans have no checkout yet. */
export function PlanNotice({ plan, role }: { plan: PlanView; role?: 'status' }) {
  return (
    <p className={styles.plan} role={role} data-plan={plan.id}>
      You chose <strong>{plan.name}</strong> ({priceText(plan.price)}).{' '}
      {plan.free ? (
        <>Everything in it is yours as soon as your account exists.</>
      ) : (
        <>
          Paid plans have no checkout yet, so your account starts on Free and nothing is charged. <a href="/pricing">Compare plans</a>.
        </>
      )}
    </p>
  );
}
