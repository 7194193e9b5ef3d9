/** Taking one finalizer off a stored object, as the protection controllers do. */
import type { ResourceClient } from '../client/in-process-client.js';
import { isStatusError } from '../machinery/errors.js';
import type { KubeObject } from '../schema/index.js';

/** Removes one finalizer from the stored object (the same one, by uid); gone already is done. */
export async function removeFinalizer(client: ResourceClient, namespace: string, name: string, finalizer: string, uid: string | undefined): Promise<void> {
  try {
    await client.update(namespace, name, (current) => {
      const obj = current as KubeObject;
      if (uid && obj.metadata.uid !== uid) throw new Error('the object was replaced meanwhile');
      obj.metadata.finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      return obj;
    });
  } catch (e) {
    if (!isStatusError(e, 'NotFound')) throw e;
  }
}
