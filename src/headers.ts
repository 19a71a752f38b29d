// Names of the credential headers the APIs take. A module of their own, so that the clients that set them and the
// authorizers need not import each other.
/** @internal */
export const SUBSCRIPTION_KEY_HEADER = 'Ocp-Apim-Subscription-Key';
/** @internal */
export const FLEET_API_KEY_HEADER = 'API-Key';
