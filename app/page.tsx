export default function Home() {
  return (
    <main>
      <h1>Codetally</h1>
      <p>Coding activity from your editors and desktop, with privacy enforced by the server.</p>
      <p>
        API description: <a href="/main/api/v1/openapi.json">/main/api/v1/openapi.json</a>
      </p>
    </main>
  );
}
