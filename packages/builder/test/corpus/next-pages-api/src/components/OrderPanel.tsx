import axios from 'axios';
import { getJSON, putJSON } from '../lib/api-client';

export function OrderPanel({ id }: { id: string }) {
  const save = async (note: string) => putJSON(`${process.env.NEXT_PUBLIC_BASE_URL}/api/orders/${id}/note`, { note });
  const refresh = async () => getJSON(`/api/orders/${id}`);
  const clear = async () => axios.delete('/api/cart/clear');
  return (
    <div>
      <button onClick={() => save('gift wrap')}>Save note</button>
      <button onClick={refresh}>Refresh</button>
      <button onClick={clear}>Clear cart</button>
    </div>
  );
}
