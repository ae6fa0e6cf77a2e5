// Jest global setup for the e2e suite: the n8n runtime is installed (first time: minutes) and our package packed once.
import { ensureRuntime, packagedTarball } from './runtime';

export default async function globalSetup(): Promise<void> {
	await ensureRuntime();
	await packagedTarball();
}
