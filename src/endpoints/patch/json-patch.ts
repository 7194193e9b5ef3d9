/** JSON Patch lives in machinery (admission webhooks apply patches too); handlers import it from here. */
export * from '../../machinery/json-patch.js';
