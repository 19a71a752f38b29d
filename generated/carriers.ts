// Generated from openapi/carriers/openapi.yaml by `npm run generate`. Do not edit by hand: change the spec under openapi/ and regenerate.
export interface paths {
    "/v1/load-milestone-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record a load milestone event
         * @description Records one milestone of a load. Send a JSON body with `load_id`,
         *     `milestone_type` and `event_time` (ISO 8601, UTC) and a bearer token.
         *
         *     Sending the subscription key as well is accepted. Do not blindly retry this
         *     call after a timeout: the event may already be recorded.
         */
        post: operations["recordLoadMilestoneEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * LoadMilestoneEvent
         * @description A milestone of a load, with the time it happened.
         */
        LoadMilestoneEvent: {
            /**
             * @description Identifier of the load.
             * @example LD-20261122-0042
             */
            load_id: string;
            /**
             * @description Kind of milestone.
             * @example PICKED_UP
             */
            milestone_type: string;
            /**
             * Format: date-time
             * @description Time of the milestone, an ISO 8601 (RFC 3339) timestamp in UTC, ending in
             *     `Z` (or `+00:00`).
             * @example 2026-11-22T14:30:00Z
             */
            event_time: string;
        };
        /**
         * LoadMilestoneEventConfirmation
         * @description Confirmation that the milestone event was recorded.
         */
        LoadMilestoneEventConfirmation: {
            /**
             * @description The confirmation message.
             * @example Load milestone event recorded.
             */
            message: string;
        };
        /**
         * Error
         * @description Error body of the carriers and fleet APIs and of the API gateway. The shape is
         *     deliberately open: every property is optional and unknown properties are allowed.
         */
        Error: {
            /**
             * @description The HTTP status code, repeated in the body by some gateways.
             * @example 401
             */
            statusCode?: number;
            /**
             * @description A machine-readable error code.
             * @example invalid_request
             */
            code?: string;
            /**
             * @description Human-readable text that explains the error.
             * @example The request is invalid.
             */
            message?: string;
            /**
             * @description An identifier to quote when reporting the error.
             * @example 9f1c2a44-6f0e-4a43-8d0b-2d1a6f7c0b11
             */
            requestId?: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Seconds to wait before retrying the request. */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    recordLoadMilestoneEvent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoadMilestoneEvent"];
            };
        };
        responses: {
            /** @description The event was recorded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoadMilestoneEventConfirmation"];
                };
            };
            /** @description The body is not valid JSON, a field is missing, or `event_time` is not an ISO 8601 UTC timestamp. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            /** @description The bearer token is missing, invalid or expired. Get a new token and retry once. */
            401: {
                headers: {
                    /**
                     * @description A `Bearer` challenge with its attributes, for example
                     *     `Bearer realm="carriers", error="invalid_token"`. RFC 6750 section 3 requires
                     *     it on every refusal of a missing or invalid token; a gateway's refusal of a
                     *     wrong subscription key may come without it.
                     */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            /** @description The token is valid but the application is not subscribed to the carriers product or lacks the scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            /** @description No such operation at this address (check the base URL), or the load is unknown. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests; retry after the indicated delay. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            /** @description The service failed. The event may or may not be recorded. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            /**
             * @description Any other client error. The seed gives no error codes and advises clients to
             *     handle status classes, so a status not listed above is still a client error
             *     of this operation, with a JSON (or RFC 9457 problem) body or none.
             */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
        };
    };
}
