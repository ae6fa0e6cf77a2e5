/**
 * Where the line is between what AWeber's add-subscriber call is for and an import (docs/aweber-behaviour.md#bulk-adds):
 * AWeber treats bulk adds through the API as abuse and can hold the account. Said where users decide (the Output
 * option, the add operations' descriptions), in the hint above the threshold, and in the error of a held account.
 */

/** Where an existing list is imported in AWeber's web app. */
export const AWEBER_IMPORTER = "AWeber's importer (Subscribers > Add Subscribers in AWeber, then import a file)";

/** The advice, in one sentence. */
export const BULK_ADD_ADVICE = `Adding subscribers through the API is for people who sign up, buy or change elsewhere (ongoing syncs and catch-up runs); import an existing list with ${AWEBER_IMPORTER}, because AWeber treats bulk adds through the API as abuse and can put the account on hold`;
