import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Route } from '../../parts';
import { reference } from '../../reference';
import styles from '../../docs.module.css';

// One route of the API reference, made from openapi.json at build time: a page each, so that the
// guide at /docs stays short.

type Props = { params: Promise<{ route: string }> };

const routes = () => reference().routes;
async function find(params: Props['params']) {
  const { route } = await params;
  return routes().find((r) => r.anchor === route) ?? notFound();
}

export const dynamicParams = false;
export const generateStaticParams = () => routes().map((r) => ({ route: r.anchor }));

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const route = await find(params);
  return { title: `${route.method} ${route.shown}`, description: `${route.summary}: parameters, bodies, answers and examples of ${route.method} ${route.shown}.` };
}

export default async function RoutePage({ params }: Props) {
  const route = await find(params);
  return (
    <div className={styles.docs}>
      <p>
        <a href={`/docs/api#${route.anchor}`}>← Every route</a>
      </p>
      <h1>
        <code>
          {route.method} {route.shown}
        </code>
      </h1>
      <Route route={route} />
    </div>
  );
}
