import { ExecuteSingleContext } from 'n8n-core';
import type { IDataObject } from 'n8n-workflow';

import { isThisFilesRun } from './index';

export interface LoggedLine {
	level: string;
	message: string;
	metadata?: IDataObject;
}

/**
 * n8n's logger as node code reaches it (`this.logger`, defined once for every node context: execute, poll, webhook),
 * recorded until `restore()`: the lines of this file's runs (a run another file left going logs as before).
 */
export function recordNodeLogs(): { lines: LoggedLine[]; restore: () => void } {
	let owner: object | null = ExecuteSingleContext.prototype;
	while (owner !== null && !Object.getOwnPropertyDescriptor(owner, 'logger')) owner = Object.getPrototypeOf(owner) as object | null;
	if (owner === null) throw new Error("n8n-core's node contexts have no logger");
	const lines: LoggedLine[] = [];
	const record = (level: string) => (message: string, metadata?: IDataObject) => lines.push({ level, message, metadata });
	const logger = { error: record('error'), warn: record('warn'), info: record('info'), debug: record('debug') };
	const realLogger = Object.getOwnPropertyDescriptor(owner, 'logger')!.get!;
	const spy = jest.spyOn(owner as { logger: unknown }, 'logger', 'get').mockImplementation(function (this: { additionalData?: unknown }) {
		return isThisFilesRun(this.additionalData) ? logger : realLogger.call(this);
	});
	return { lines, restore: () => spy.mockRestore() };
}
