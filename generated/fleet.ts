// Generated from openapi/fleet/openapi.yaml by `npm run generate`. Do not edit by hand: change the spec under openapi/ and regenerate.
export interface paths {
    "/vehicles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the vehicles in your fleet groups
         * @description Returns the vehicles accessible to your account that match the filters. Every
         *     filter is optional and takes one or more values, sent as repeated query
         *     parameters (`vin=A&vin=B`). Values of one filter are alternatives (A or B);
         *     different filters combine (customer number and VIN). Without filters, every
         *     vehicle accessible to you is returned.
         *
         *     Note the parameter `customervehicleNumber` is spelled with a lower-case `v`.
         */
        get: operations["listVehicles"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/vehicles/{vehicleNumber}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one vehicle
         * @description Returns the vehicle with this operator-assigned vehicle number, if it is
         *     accessible to your account. A vehicle of another customer is answered exactly
         *     like an unknown one.
         */
        get: operations["getVehicle"];
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
         * Vehicle
         * @description A vehicle accessible to the caller.
         */
        Vehicle: {
            /**
             * @description The customer's lease or rental number associated with the vehicle.
             * @example C-100234
             */
            customerNumber: string;
            /**
             * @description Vehicle number assigned by the service operator.
             * @example V-000006
             */
            vehicleNumber: string;
            /**
             * @description Vehicle Identification Number.
             * @example 1ZE2UH9DLLZRK1GLX
             */
            vin: string;
            /**
             * @description The customer's own number for the vehicle.
             * @example TRK-2
             */
            customerVehicleNumber: string;
            /**
             * @description License plate number.
             * @example 8JXY206
             */
            licensePlate: string;
            /**
             * @description Domicile location number of the vehicle.
             * @example 0412
             */
            domicileLocationNumber: string;
            /**
             * @description Domicile location name of the vehicle.
             * @example Columbus, OH
             */
            domicileLocationName: string;
            /**
             * @description Type of the vehicle.
             * @example STRAIGHT_TRUCK
             */
            vehicleType: string;
        };
        /**
         * VehicleList
         * @description The vehicles accessible to the caller that match the filters.
         */
        VehicleList: components["schemas"]["Vehicle"][];
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
    listVehicles: {
        parameters: {
            query?: {
                /** @description Filter by customer number(s). */
                customerNumber?: string[];
                /** @description Filter by vehicle number(s) assigned by the operator. */
                vehicleNumber?: string[];
                /** @description Filter by VIN(s). */
                vin?: string[];
                /**
                 * @description Filter by customer vehicle number(s). Spelled with a lower-case `v`
                 *     (`customervehicleNumber`), unlike the response field `customerVehicleNumber`.
                 */
                customervehicleNumber?: string[];
                /** @description Filter by license plate number(s). */
                licensePlate?: string[];
                /**
                 * @description Sort by one attribute: the attribute name, a space, and a direction (`asc` or
                 *     `desc`), e.g. `vehicleNumber asc`. The attributes are the vehicle fields.
                 */
                sort?: "customerNumber asc" | "customerNumber desc" | "vehicleNumber asc" | "vehicleNumber desc" | "vin asc" | "vin desc" | "customerVehicleNumber asc" | "customerVehicleNumber desc" | "licensePlate asc" | "licensePlate desc" | "domicileLocationNumber asc" | "domicileLocationNumber desc" | "domicileLocationName asc" | "domicileLocationName desc" | "vehicleType asc" | "vehicleType desc";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The matching vehicles (possibly none). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VehicleList"];
                };
            };
            /** @description A parameter is invalid (for example an unknown sort attribute). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            /** @description The `API-Key` header is missing or the key is invalid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            /** @description The key is valid but not approved for the fleet product, or the caller has no lessee number. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            /** @description No such operation at this address (check the fleet base URL). */
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
    getVehicle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The vehicle number assigned by the operator. */
                vehicleNumber: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The vehicle. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Vehicle"];
                };
            };
            /** @description The vehicle number is malformed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            /** @description The `API-Key` header is missing or the key is invalid. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            /** @description The key is valid but not approved for the fleet product, or the caller has no lessee number. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                    "application/problem+json": components["schemas"]["Error"];
                };
            };
            /** @description No vehicle with this number is accessible to you. */
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
}
