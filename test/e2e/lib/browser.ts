// Headless Chromium (Debian's `chromium` package) driving the real n8n editor with playwright-core.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

import { chromium, selectors, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

import { SANDBOX_CUSTOMER_LOGIN } from '../../sandbox/apps';
import { OWNER, type N8nInstance } from './n8n';
import { PROJECT_DIR } from './runtime';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** No GPU, no sandboxing (root in a container), and nothing that calls out of the machine. */
export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--no-first-run',
	'--disable-sync',
	'--disable-quic',
];

/** Big enough for the node panel to show every AWeber node and the parameters panel without scrolling. */
export const EDITOR_VIEWPORT = { width: 1440, height: 1200 };

/**
 * Where screenshots go: the README's images in docs/screenshots/ with UPDATE_SCREENSHOTS=1, otherwise
 * .tmp/screenshots/ (git-ignored), so that ordinary runs leave the working tree clean.
 */
export const SCREENSHOT_DIR = path.join(PROJECT_DIR, process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots' : '.tmp/screenshots');

// n8n marks its UI with data-test-id (playwright's default is data-testid).
selectors.setTestIdAttribute('data-test-id');

export async function launchBrowser(): Promise<Browser> {
	if (!existsSync(CHROMIUM_PATH)) {
		throw new Error(`No Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
	}
	return await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * A fresh browser context signed in to n8n as the owner, through n8n's sign-in page.
 * The editor then holds its own session (n8n ties a session to the browser's browser-id, so
 * the test process's cookie cannot simply be copied over).
 */
export async function openSignedInEditor(browser: Browser, n8n: N8nInstance): Promise<{ context: BrowserContext; page: Page }> {
	const context = await browser.newContext({ viewport: EDITOR_VIEWPORT });
	const page = await context.newPage();
	await page.goto(`${n8n.baseUrl}/signin`);
	// n8n 2.x gives the inputs these ids; 1.x generated ids, but the same names.
	await page.locator('#emailOrLdapLoginId, input[name="emailOrLdapLoginId"]').first().fill(OWNER.email);
	await page.locator('#password, input[name="password"]').first().fill(OWNER.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
	return { context, page };
}

export interface OAuthConnectResult {
	/** The authorize URL n8n built (GET /rest/oauth2-credential/auth) and opened in the pop-up. */
	authorizeUrl: URL;
	/** The text of the page n8n's OAuth callback rendered in the pop-up. */
	callbackPage: string;
}

/**
 * Connects an OAuth2 credential as a user does: opens it in the editor, clicks Connect, signs in
 * and approves on the (sandbox's) AWeber page in the pop-up, and waits until the dialog says
 * "Account connected".
 */
export async function connectCredentialInEditor(
	page: Page,
	n8n: N8nInstance,
	credentialId: string,
	login: { username: string; password: string } = SANDBOX_CUSTOMER_LOGIN,
): Promise<OAuthConnectResult> {
	const context = page.context();
	await page.goto(`${n8n.baseUrl}/home/credentials/${credentialId}`);
	// n8n 2.x shows a "not connected" banner with a quick-connect button; 1.x a plain connect button.
	const connect = page
		.getByTestId('oauth-not-connected-banner')
		.getByTestId('quick-connect-button')
		.or(page.getByTestId('oauth-connect-button'))
		.first();
	await connect.waitFor();

	// The editor closes the pop-up as soon as the callback page reports success; keep it open so that
	// the page itself can be read (the editor is told all the same, by BroadcastChannel and postMessage).
	await context.addInitScript(() => {
		if (window.location.pathname === '/rest/oauth2-credential/callback') window.close = () => undefined;
	});
	const popupOpened = context.waitForEvent('page');
	await connect.click();
	const popup = await popupOpened;
	await popup.waitForURL((url) => url.pathname.endsWith('/oauth2/authorize'));
	const authorizeUrl = new URL(popup.url());

	await popup.locator('#username').fill(login.username);
	await popup.locator('#password').fill(login.password);
	await popup.locator('#approve').click();
	await popup.waitForURL((url) => url.pathname === '/rest/oauth2-credential/callback');
	await popup.locator('h1, h4').first().waitFor();
	const callbackPage = await popup.locator('body').innerText();
	await page.getByTestId('oauth-connect-success-banner').waitFor();
	await popup.close();
	return { authorizeUrl, callbackPage };
}

/** Opens a saved workflow on the canvas and waits for its nodes. */
export async function openWorkflow(page: Page, n8n: N8nInstance, workflowId: string): Promise<void> {
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}`);
	await page.getByTestId('canvas-node').first().waitFor();
}

/** Opens the node panel (the canvas's +) and searches it; resolves with the names it lists. */
export async function searchNodePanel(page: Page, query: string, expectedName: string): Promise<string[]> {
	await page.getByTestId('node-creator-plus-button').click();
	await page.getByTestId('node-creator-search-bar').fill(query);
	const names = page.getByTestId('node-creator-item-name');
	await names.filter({ hasText: expectedName }).first().waitFor();
	return (await names.allInnerTexts()).map((name) => name.trim());
}

/**
 * Opens an app's page of the node panel (search, then the node listed as `appName`) and expands its Triggers
 * section; resolves with the names of the triggers' events listed there. Empty when the page has no Triggers section
 * (n8n 2.x, for an installed community node without triggers of its own) or says "No <app> Triggers available":
 * what n8n shows when no trigger node was merged into the app's page.
 */
export async function openAppTriggers(page: Page, query: string, appName: string): Promise<string[]> {
	await searchNodePanel(page, query, appName);
	await page.getByTestId('node-creator-item-name').getByText(appName, { exact: true }).click();
	const category = (name: string) => page.getByTestId('node-creator-category-item').filter({ hasText: new RegExp(`^\\s*${name}`) });
	await category('Actions').first().waitFor();
	const triggers = page.locator('[data-category-collapsed]').filter({ has: category('Triggers') });
	if ((await triggers.count()) === 0) return [];
	if ((await triggers.getAttribute('data-category-collapsed')) === 'true') await category('Triggers').click();
	await triggers.getByTestId('item-iterator-item').first().waitFor();
	if ((await page.getByTestId('actions-panel-no-triggers-callout').count()) > 0) return [];
	return (await triggers.getByTestId('node-creator-item-name').allInnerTexts()).map((name) => name.trim());
}

/** Opens a node's parameters (double-click on the canvas); resolves with the parameters panel. */
export async function openNodeParameters(page: Page, nodeName: string) {
	await page.getByTestId('canvas-node').filter({ hasText: nodeName }).dblclick();
	const parameters = page.getByTestId('ndv').getByTestId('node-parameters');
	await parameters.waitFor();
	return parameters;
}

/** The values of the inputs under `scope` (as shown), once the editor has loaded their options. */
export async function inputValues(scope: Locator, timeoutMs = 30_000): Promise<string[]> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const values = await scope
			.locator('input')
			.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
		if (!values.some((value) => value.startsWith('Loading options')) || Date.now() > deadline) return values;
		await scope.page().waitForTimeout(200);
	}
}

/** Saves what the page shows as SCREENSHOT_DIR/<name>. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	await page.screenshot({ path: path.join(SCREENSHOT_DIR, name), animations: 'disabled', caret: 'hide' });
}
