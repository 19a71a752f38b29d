// Generated from openapi/token/openapi.yaml by `npm run generate`. Do not edit by hand: change the spec under openapi/ and regenerate.
export interface paths {
    "/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request an access token from the service
         * @description Client credentials grant at the service token endpoint. Post your `client_id`
         *     and `client_secret` form-encoded; the response carries the bearer token.
         *
         *     **The lifetime is in `expired_in`** (sic), not `expires_in`. The token is valid
         *     for 1 hour; request a new one before it expires.
         */
        post: operations["requestServiceToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth2/default/v1/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request an access token from the identity provider
         * @description Token endpoint of the identity provider, for both grants. The request is
         *     form-encoded and must carry the `Ocp-Apim-Subscription-Key` header.
         *
         *     - **Client credentials**: `grant_type=client_credentials`, `client_id`,
         *       `client_secret` and `scope`.
         *     - **Authorization code**: `grant_type=authorization_code`, `client_id`,
         *       `client_secret`, the `code` received at your redirect URI, and exactly the
         *       same `redirect_uri` that was used in the authorization redirect.
         *
         *     The response follows RFC 6749 (`expires_in`), unlike the service endpoint.
         */
        post: operations["requestIdentityProviderToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth2/default/v1/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start the authorization code grant
         * @description Send the user's browser here (a redirect, not an API call) to start the
         *     authorization code grant. After login and consent the identity provider
         *     redirects the browser to `redirect_uri` with `code` and, when you sent one,
         *     your unchanged `state`. Exchange the code with `requestIdentityProviderToken`
         *     using the same `redirect_uri`.
         *
         *     Always send a fresh random `state` and check it when the browser comes back:
         *     it is what protects your callback against cross-site request forgery.
         */
        get: operations["requestAuthorization"];
        put?: never;
        post?: never;
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
         * ServiceTokenRequest
         * @description Form fields of a client credentials token request to the service token endpoint.
         */
        ServiceTokenRequest: {
            /**
             * @description Always `client_credentials`.
             * @example client_credentials
             * @constant
             */
            grant_type: "client_credentials";
            /**
             * @description Application client identifier, from the developer portal.
             * @example 0oa8f3k2lqPartnerApp
             */
            client_id: string;
            /**
             * Format: password
             * @description Application client secret, revealed on request in the developer portal.
             * @example s3cr3t-example-value
             */
            client_secret: string;
        };
        /**
         * ServiceTokenResponse
         * @description Access token issued by the service token endpoint.
         *
         *     **Quirk: the lifetime field is spelled `expired_in`**, not `expires_in` as in
         *     RFC 6749. This is the published response shape of `POST {base_url}/token`; read
         *     `expired_in`, and do not expect `expires_in` here.
         */
        ServiceTokenResponse: {
            /**
             * @description The bearer token. Send it as `Authorization: Bearer <access_token>`.
             * @example eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwYXJ0bmVyIn0.c2lnbmF0dXJl
             */
            access_token: string;
            /**
             * @description Always `Bearer`.
             * @example Bearer
             * @constant
             */
            token_type: "Bearer";
            /**
             * @description Lifetime of the token in seconds (spelled `expired_in`). A new token is valid
             *     for 1 hour, so the value is at most 3600.
             * @example 3600
             */
            expired_in: number;
        };
        /**
         * OAuthError
         * @description Error body of a token endpoint, as defined by RFC 6749 section 5.2.
         */
        OAuthError: {
            /**
             * @description An RFC 6749 section 5.2 error code: `invalid_request`, `invalid_client`,
             *     `invalid_grant`, `unauthorized_client`, `unsupported_grant_type` or `invalid_scope`.
             * @example invalid_client
             */
            error: string;
            /**
             * @description Human-readable text that helps a developer understand the error.
             * @example Client authentication failed.
             */
            error_description?: string;
            /**
             * Format: uri
             * @description A page with more information about the error.
             */
            error_uri?: string;
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
        /**
         * ClientCredentialsGrantRequest
         * @description Form fields of a client credentials token request to the identity provider.
         */
        ClientCredentialsGrantRequest: {
            /**
             * @description Always `client_credentials`. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            grant_type: "client_credentials";
            /**
             * @description Application client identifier.
             * @example 0oa8f3k2lqPartnerApp
             */
            client_id: string;
            /**
             * Format: password
             * @description Application client secret.
             * @example s3cr3t-example-value
             */
            client_secret: string;
            /**
             * @description Requested scope(s), space-separated.
             * @example carriers.milestones
             */
            scope: string;
        };
        /**
         * AuthorizationCodeGrantRequest
         * @description Form fields that exchange an authorization code for a token at the identity provider.
         */
        AuthorizationCodeGrantRequest: {
            /**
             * @description Always `authorization_code`. (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            grant_type: "authorization_code";
            /**
             * @description Application client identifier.
             * @example 0oa8f3k2lqPartnerApp
             */
            client_id: string;
            /**
             * Format: password
             * @description Application client secret.
             * @example s3cr3t-example-value
             */
            client_secret: string;
            /**
             * Format: uri
             * @description Must equal the `redirect_uri` used in the authorization redirect.
             * @example http://127.0.0.1:8765/callback
             */
            redirect_uri: string;
            /**
             * @description The authorization code received at the redirect URI.
             * @example SplxlOBeZQQYbYS6WxSbIA
             */
            code: string;
            /**
             * @description PKCE code verifier (RFC 7636), when the redirect carried a `code_challenge`.
             * @example dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk
             */
            code_verifier?: string;
        };
        /**
         * IdentityProviderTokenRequest
         * @description Form fields of a token request to the identity provider, one per grant type.
         */
        IdentityProviderTokenRequest: components["schemas"]["ClientCredentialsGrantRequest"] | components["schemas"]["AuthorizationCodeGrantRequest"];
        /**
         * IdentityProviderTokenResponse
         * @description Access token issued by the identity provider, in the RFC 6749 section 5.1 shape
         *     (note: `expires_in` here, unlike the service endpoint's `expired_in`).
         */
        IdentityProviderTokenResponse: {
            /**
             * @description The bearer token.
             * @example eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJpZHAifQ.c2lnbmF0dXJl
             */
            access_token: string;
            /**
             * @description The token type, `Bearer` (compared case-insensitively, as RFC 6749 section 5.1 says).
             * @example Bearer
             */
            token_type: string;
            /**
             * @description Lifetime of the token in seconds.
             * @example 3600
             */
            expires_in?: number;
            /**
             * @description The granted scope(s), space-separated.
             * @example carriers.milestones
             */
            scope?: string;
            /** @description A refresh token, if the provider issues one for the grant. */
            refresh_token?: string;
            /** @description An OpenID Connect ID token, if the provider issues one for the grant. */
            id_token?: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /**
         * @description `no-store`: a response that carries a token is never stored by a cache (RFC 6749
         *     section 5.1 requires it of every token response).
         */
        CacheControlNoStore: string;
        /**
         * @description `no-cache`: the HTTP/1.0 spelling of `no-store` for older caches. RFC 6749
         *     section 5.1 asks for it in every token response, but RFC 9111 section 5.4 has
         *     since deprecated `Pragma`, and the OAuth 2.1 draft asks only for
         *     `Cache-Control: no-store`: a server may leave it out. When sent, it says
         *     `no-cache`.
         */
        PragmaNoCache: string;
        /** @description Seconds to wait before retrying the request. */
        RetryAfter: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    requestServiceToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["ServiceTokenRequest"];
            };
        };
        responses: {
            /** @description The access token. Note the `expired_in` spelling. */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    Pragma: components["headers"]["PragmaNoCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceTokenResponse"];
                };
            };
            /** @description The request is malformed or the grant is not supported. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description Client authentication failed (unknown client or wrong secret). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description The client may not use this grant. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description No token endpoint at this address (check the base URL). */
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
            /** @description The service failed; retry later. */
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
    requestIdentityProviderToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["IdentityProviderTokenRequest"];
            };
        };
        responses: {
            /** @description The access token (RFC 6749 section 5.1). */
            200: {
                headers: {
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    Pragma: components["headers"]["PragmaNoCache"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IdentityProviderTokenResponse"];
                };
            };
            /** @description The request is malformed, the grant is unsupported, or the code is invalid, expired, already used or bound to another redirect URI. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /**
             * @description Client authentication failed, or the subscription key is missing or invalid
             *     (then the gateway answers, with its own error body).
             */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"] | components["schemas"]["Error"];
                };
            };
            /** @description The client may not use this grant or scope. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthError"];
                };
            };
            /** @description No token endpoint at this address (check the auth URL). */
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
            /** @description The identity provider failed; retry later. */
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
    requestAuthorization: {
        parameters: {
            query: {
                /** @description Application client identifier. */
                client_id: string;
                /** @description Always `code`. */
                response_type: "code";
                /** @description Address to which the user is sent back after login; it must be registered for your application. */
                redirect_uri: string;
                /** @description Requested scope(s), space-separated. */
                scope: string;
                /** @description Opaque value that guards against cross-site request forgery; returned unchanged. */
                state?: string;
                /** @description PKCE code challenge (RFC 7636), the base64url SHA-256 of your `code_verifier`. */
                code_challenge?: string;
                /** @description PKCE method; only `S256` is supported. */
                code_challenge_method?: "S256";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The identity provider's login or consent page, when the user must still sign in or approve. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Redirect to `redirect_uri` with `code` and the `state` you sent (or with `error` when the request was refused). */
            302: {
                headers: {
                    /** @description The registered redirect URI with `code` and `state` (or `error` and `state`) in its query. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The client or the redirect URI is unknown or not registered; shown to the user, never redirected. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Too many requests; retry after the indicated delay. */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description The identity provider failed; retry later. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /**
             * @description The same redirect with another status (RFC 6749 section 4.1.2 allows any
             *     redirect the user agent follows, e.g. 303 or 307); or, for a user who must
             *     still sign in, a redirect to the identity provider's own login page.
             */
            "3XX": {
                headers: {
                    /**
                     * @description The registered redirect URI with `code` and `state` (or `error` and `state`) in its query; or the
                     *     identity provider's login page, often as a relative reference (RFC 9110 section 10.2.2: a
                     *     URI-reference, resolved against the request's URI).
                     */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Any other client error. The identity provider shows an error page and does not redirect. */
            "4XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
}
