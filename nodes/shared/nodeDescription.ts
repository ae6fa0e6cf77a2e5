import type { INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { aweberCredentials, aweberRequestDefaults } from './requestDefaults';
import { aweberRequestOperations } from './routing';

/**
 * What every AWeber action node shares: one version, one input and output, the credential and the request path.
 * Each node spreads it and adds its names, icon (lint wants it written in the class), description and properties
 * (after `aweberTransport`).
 */
export const aweberActionNode = {
	version: 1,
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
	credentials: aweberCredentials,
	requestDefaults: aweberRequestDefaults,
	requestOperations: aweberRequestOperations,
} satisfies Partial<INodeTypeDescription>;
