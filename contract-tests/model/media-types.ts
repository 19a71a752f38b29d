// A media type as the suite compares it: the essence of a Content-Type, lower case, without its parameters.
export const mediaTypeOf = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();
