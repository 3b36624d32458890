// The browser's helpers: each sends its first argument as the URL with one fixed method.
export async function putJSON(url: string, data: unknown) {
  const response = await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(data) });
  return response.json();
}

export async function getJSON(url: string) {
  return (await fetch(url)).json();
}
