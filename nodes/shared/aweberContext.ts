import type { IExecuteSingleFunctions, RequestHelperFunctions } from 'n8n-workflow';

/** What the shared request path needs from any n8n context (execute, load options, hooks, polls, webhooks). */
export type AweberContext = Pick<IExecuteSingleFunctions, 'getNode' | 'getCredentials' | 'logger'> &
	Partial<Pick<IExecuteSingleFunctions, 'getExecutionCancelSignal' | 'getExecutionId' | 'getWorkflowSettings' | 'continueOnFail'>> & {
		helpers: Pick<RequestHelperFunctions, 'httpRequestWithAuthentication'>;
	};
