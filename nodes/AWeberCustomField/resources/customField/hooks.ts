/*
 * The request-time functions the Custom Field operations name in their routing: the one module of this resource
 * that reaches the network layer, imported only by index.ts and the operation files, so that the fields stay
 * descriptions (docs/architecture.md#fields-and-hooks).
 */
export { followLocation } from '../../../shared/followLocation';
export { refusingBadInput } from '../../../shared/itemFailures';
