// Each kind of change the breaking-change check must recognise, on small before/after documents built here.
import { describe, expect, it } from 'vitest';
import { compareSpecs, specDiffReport, type Change } from '../../tools/spec-diff.ts';

type Json = Record<string, any>;

/** A small API with what the rules look at: auth, parameters, a closed request body, enums, statuses, expired_in. */
function baseDoc(): Json {
  return {
    openapi: '3.1.0',
    info: { title: 'Example', version: '1.0.0' },
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'API-Key' },
        OAuth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/token', scopes: {} } } },
      },
      schemas: {
        Thing: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string' }, kind: { type: 'string', enum: ['small', 'large'] }, label: { type: 'string' } },
        },
        Token: {
          type: 'object',
          required: ['access_token', 'expired_in'],
          properties: { access_token: { type: 'string' }, expired_in: { type: 'integer' } },
        },
      },
    },
    paths: {
      '/things': {
        get: {
          operationId: 'listThings',
          security: [{ ApiKey: [] }],
          parameters: [{ name: 'kind', in: 'query', required: false, schema: { type: 'string', enum: ['small', 'large'] } }],
          responses: {
            '200': {
              description: 'The things.',
              content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } },
            },
            '404': { description: 'None.' },
          },
        },
        post: {
          operationId: 'createThing',
          security: [{ OAuth2: [] }],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['id'],
                  properties: {
                    id: { type: ['string', 'integer'] },
                    kind: { type: 'string', enum: ['small', 'large'] },
                    note: { type: 'string' },
                  },
                },
              },
            },
          },
          responses: { '200': { description: 'Created.' }, '400': { description: 'Bad request.' } },
        },
      },
      '/token': {
        post: {
          operationId: 'requestToken',
          security: [],
          responses: {
            '200': { description: 'A token.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Token' } } } },
          },
        },
      },
    },
  };
}

function changesAfter(edit: (doc: Json) => void): Change[] {
  const before = baseDoc();
  const after = baseDoc();
  edit(after);
  return compareSpecs(before, after);
}

const breaking = (changes: Change[]) => changes.filter((c) => c.severity === 'breaking');
const requestSchema = (doc: Json) => doc.paths['/things'].post.requestBody.content['application/json'].schema;

describe('compareSpecs', () => {
  it('finds nothing between identical documents', () => {
    expect(changesAfter(() => {})).toEqual([]);
  });

  it('marks a description change as an annotation, not breaking', () => {
    const changes = changesAfter((doc) => {
      doc.paths['/things'].get.description = 'Lists the things.';
    });
    expect(changes.map((c) => c.severity)).toEqual(['annotation']);
  });

  it("marks a changed example of a response header's schema as an annotation, not breaking", () => {
    const withExample = (example: string) => {
      const doc = baseDoc();
      doc.paths['/things'].get.responses['404'].headers = { 'WWW-Authenticate': { schema: { type: 'string', example } } };
      return doc;
    };
    const changes = compareSpecs(withExample('Bearer'), withExample('Bearer realm="things"'));
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.map((c) => c.severity)).toEqual(changes.map(() => 'annotation'));
  });

  it('a Location header that may now be relative (uri to uri-reference) is not breaking; the other way round it is', () => {
    const withLocation = (format: string) => {
      const doc = baseDoc();
      doc.paths['/things'].get.responses['404'].headers = { Location: { schema: { type: 'string', format } } };
      return doc;
    };
    expect(breaking(compareSpecs(withLocation('uri'), withLocation('uri-reference')))).toEqual([]);
    expect(compareSpecs(withLocation('uri'), withLocation('uri-reference')).map((c) => c.severity)).toContain('non-breaking');
    expect(breaking(compareSpecs(withLocation('uri-reference'), withLocation('uri'))).length).toBeGreaterThan(0);
  });

  it("uses only the README's three classes: an x- extension is an annotation, a deprecation non-breaking", () => {
    const changes = changesAfter((doc) => {
      doc.paths['/things'].get['x-codeSamples'] = [{ lang: 'curl', source: 'curl /things' }];
      doc.components.schemas.Thing['x-assumption'] = { what: 'a guess' };
      doc.paths['/things'].get.deprecated = true;
    });
    expect(changes.length).toBeGreaterThan(0);
    for (const change of changes) expect(['breaking', 'non-breaking', 'annotation']).toContain(change.severity);
    expect(changes.filter((c) => c.path.includes('x-')).map((c) => c.severity)).toEqual(expect.arrayContaining(['annotation']));
    expect(breaking(changes)).toEqual([]);
  });

  describe('removed operation or field', () => {
    it('a removed operation is breaking', () => {
      const found = breaking(changesAfter((doc) => delete doc.paths['/things'].post));
      expect(found.map((c) => c.where)).toEqual(['POST /things']);
    });

    it('a removed response field is breaking, once per operation that returns it', () => {
      const found = breaking(changesAfter((doc) => delete doc.components.schemas.Thing.properties.label));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ where: 'GET /things', rule: 'a response field was removed' });
      expect(found[0]!.path).toContain('properties.label');
    });

    it('a removed request field is breaking (request bodies are closed)', () => {
      const found = breaking(changesAfter((doc) => delete requestSchema(doc).properties.note));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ where: 'POST /things', rule: 'a request field was removed' });
    });

    it('an added optional field or parameter is not breaking', () => {
      const changes = changesAfter((doc) => {
        requestSchema(doc).properties.reference = { type: 'string' };
        doc.paths['/things'].get.parameters.push({ name: 'q', in: 'query', schema: { type: 'string' } });
      });
      expect(changes.length).toBe(2);
      expect(breaking(changes)).toEqual([]);
    });
  });

  describe('new requirements in a request', () => {
    it('a new required parameter is breaking', () => {
      const found = breaking(
        changesAfter((doc) =>
          doc.paths['/things'].get.parameters.push({ name: 'region', in: 'query', required: true, schema: { type: 'string' } }),
        ),
      );
      expect(found.map((c) => c.what).join()).toContain('region');
    });

    it('an optional parameter becoming required is breaking', () => {
      expect(breaking(changesAfter((doc) => (doc.paths['/things'].get.parameters[0].required = true)))).toHaveLength(1);
    });

    it('a new required request field is breaking', () => {
      const found = breaking(
        changesAfter((doc) => {
          requestSchema(doc).properties.owner = { type: 'string' };
          requestSchema(doc).required.push('owner');
        }),
      );
      expect(found.length).toBeGreaterThanOrEqual(1);
      expect(found.every((c) => c.where === 'POST /things')).toBe(true);
    });
  });

  describe('narrowed type or enum', () => {
    it('a narrowed request type is breaking, a widened one is not', () => {
      expect(breaking(changesAfter((doc) => (requestSchema(doc).properties.id.type = 'string')))).toHaveLength(1);
      const widened = changesAfter((doc) => (requestSchema(doc).properties.id.type = ['string', 'integer', 'null']));
      expect(widened.length).toBe(1);
      expect(breaking(widened)).toEqual([]);
    });

    it('a changed response type is breaking', () => {
      const found = breaking(changesAfter((doc) => (doc.components.schemas.Thing.properties.id.type = 'integer')));
      expect(found).toHaveLength(1);
      expect(found[0]!.rule).toBe('the type of a response value changed');
    });

    it('a narrowed enum in a parameter or request is breaking, a widened request enum is not', () => {
      expect(breaking(changesAfter((doc) => (doc.paths['/things'].get.parameters[0].schema.enum = ['small'])))).toHaveLength(1);
      expect(breaking(changesAfter((doc) => (requestSchema(doc).properties.kind.enum = ['small'])))).toHaveLength(1);
      const widened = changesAfter((doc) => requestSchema(doc).properties.kind.enum.push('medium'));
      expect(widened.length).toBe(1);
      expect(breaking(widened)).toEqual([]);
    });

    it('a new value in a response enum is breaking (clients switch over it)', () => {
      expect(breaking(changesAfter((doc) => doc.components.schemas.Thing.properties.kind.enum.push('medium')))).toHaveLength(1);
    });
  });

  describe('changed auth', () => {
    it('replacing the scheme of an operation is breaking', () => {
      const found = breaking(changesAfter((doc) => (doc.paths['/things'].get.security = [{ OAuth2: [] }])));
      expect(found.length).toBeGreaterThanOrEqual(1);
      expect(found.every((c) => c.where === 'GET /things')).toBe(true);
    });

    it('requiring a second credential is breaking; accepting an alternative is not', () => {
      const added = breaking(changesAfter((doc) => (doc.paths['/things'].get.security = [{ ApiKey: [], OAuth2: [] }])));
      expect(added.map((c) => c.rule)).toEqual(['the authentication of an operation changed']);
      const alternative = changesAfter((doc) => doc.paths['/things'].get.security.push({ OAuth2: [] }));
      expect(alternative.length).toBe(1);
      expect(breaking(alternative)).toEqual([]);
    });

    it('a security scheme with another header name is breaking', () => {
      const found = breaking(changesAfter((doc) => (doc.components.securitySchemes.ApiKey.name = 'X-Api-Key')));
      expect(found.map((c) => c.where)).toEqual(['security scheme ApiKey']);
    });

    it('securing an open operation is breaking', () => {
      const found = breaking(changesAfter((doc) => (doc.paths['/token'].post.security = [{ ApiKey: [] }])));
      expect(found.map((c) => c.where)).toContain('POST /token');
    });
  });

  describe('changed status codes', () => {
    it('a removed status code is breaking', () => {
      const found = breaking(changesAfter((doc) => delete doc.paths['/things'].get.responses['404']));
      expect(found.map((c) => c.path)).toEqual(['paths./things.get.responses.404']);
    });

    it('a success status moved from 200 to 201 is breaking', () => {
      const found = breaking(
        changesAfter((doc) => {
          const responses = doc.paths['/things'].post.responses;
          responses['201'] = responses['200'];
          delete responses['200'];
        }),
      );
      expect(found.map((c) => c.path)).toEqual(['paths./things.post.responses.200']);
    });
  });

  it('renaming expired_in to expires_in is breaking and says so', () => {
    const found = breaking(
      changesAfter((doc) => {
        const token = doc.components.schemas.Token;
        token.properties.expires_in = token.properties.expired_in;
        delete token.properties.expired_in;
        token.required = ['access_token', 'expires_in'];
      }),
    );
    expect(found.length).toBeGreaterThanOrEqual(1);
    expect(found.some((c) => c.rule === 'the `expired_in` field is renamed or removed')).toBe(true);
    expect(found.every((c) => c.where === 'POST /token')).toBe(true);
  });
});

describe('specDiffReport', () => {
  const breakingChange: Change = { severity: 'breaking', where: 'GET /things', what: 'removed', path: 'paths./things.get' };
  const annotation: Change = { severity: 'annotation', where: 'GET /things', what: 'description', path: 'paths./things.get.description' };

  it('passes with no breaking change and counts every change', () => {
    const report = specDiffReport(
      'main',
      [
        { api: 'fleet', changes: [annotation] },
        { api: 'token', changes: [] },
      ],
      false,
    );
    expect(report.exitCode).toBe(0);
    expect(report.errors).toEqual([]);
    expect(report.output.at(-1)).toBe('\nspec:diff main..work tree: 1 change(s), 0 breaking.');
    expect(report.output[1]).toBe('token: no changes');
  });

  it('fails on a breaking change with advice, unless breaking changes are allowed', () => {
    const refused = specDiffReport('v1', [{ api: 'fleet', changes: [breakingChange, annotation] }], false);
    expect(refused.exitCode).toBe(1);
    expect(refused.errors.join('\n')).toContain('rerun with --allow-breaking');
    expect(refused.output[0]).toMatch(/^fleet: 2 changes\n {2}BREAKING {5}GET \/things: removed/);
    const allowed = specDiffReport('v1', [{ api: 'fleet', changes: [breakingChange] }], true);
    expect(allowed.exitCode).toBe(0);
    expect(allowed.output.at(-1)).toContain('Breaking changes accepted');
  });
});
