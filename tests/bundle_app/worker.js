// A module worker that imports the package, opens the File it is sent, decodes the first
// tensor and transfers the array back.
import { openSafetensors } from 'safetensors-wasm';

self.onmessage = async (e) => {
  try {
    const st = await openSafetensors(e.data);
    const name = st.tensors[0].name;
    const values = await st.getTensor(name, { as: 'float32' });
    self.postMessage({ name, values }, [values.buffer]);
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
};
