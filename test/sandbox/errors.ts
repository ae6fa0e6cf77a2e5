// AWeber's error body: {"error": {"status", "type", "message", "documentation_url"}} with the
// troubleshooting anchor of the status (docs/aweber-behaviour.md#errors).

const DOCUMENTATION_ANCHORS: Record<number, string> = {
	400: 'badrequest',
	401: 'unauthorized',
	403: 'forbidden',
	404: 'notfound',
	405: 'methodnotallowed',
	409: 'conflict',
	410: 'blocked',
	415: 'invalidcontent',
	500: 'internalerror',
	503: 'serviceunavailable',
};

export interface AweberErrorBody {
	error: { status: number; type: string; message: string; documentation_url: string };
}

export class AweberError extends Error {
	constructor(
		readonly status: number,
		readonly type: string,
		message: string,
	) {
		super(message);
	}

	toBody(): AweberErrorBody {
		return errorBody(this.status, this.type, this.message);
	}
}

export function errorBody(status: number, type: string, message: string): AweberErrorBody {
	const anchor = DOCUMENTATION_ANCHORS[status] ?? 'troubleshooting';
	return { error: { status, type, message, documentation_url: `https://api.aweber.com/#${anchor}` } };
}

export const badRequest = (message: string, type = 'WebServiceError') => new AweberError(400, type, message);

export const missingArgument = (name: string) =>
	new AweberError(400, 'MissingArgumentError', `Missing required argument: ${name}`);

export const unauthorized = (message: string) => new AweberError(401, 'UnauthorizedError', message);

export const forbidden = (message: string) => new AweberError(403, 'ForbiddenError', message);

export const RATE_LIMIT_MESSAGE = 'Rate Limit Error';

export const notFound = (message = 'Resource not found', type = 'NotFoundError') =>
	new AweberError(404, type, message);

export const methodNotAllowed = (message: string) => new AweberError(405, 'MethodNotAllowedError', message);

export const conflict = (message: string, type = 'BroadcastSchedulingError') => new AweberError(409, type, message);

export const invalidContentType = (message: string) => new AweberError(415, 'InvalidContentType', message);
