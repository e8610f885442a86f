import {
  evaluateCondition,
  parseCondition,
  readCondition,
  type ConditionValue,
} from '../../src/access/azure-condition';

/** A request of `action` carrying these attributes (by `@Source[name]`, any case). */
const request = (
  action: string,
  attributes: Record<string, ConditionValue[]> = {},
  subOperation?: string,
) => ({
  action,
  ...(subOperation ? { subOperation } : {}),
  attributes: new Map(Object.entries(attributes).map(([key, values]) => [key.toLowerCase(), values])),
});
const verdict = (condition: string, ...args: Parameters<typeof request>) =>
  evaluateCondition(parseCondition(condition), request(...args));

const WRITE = 'Microsoft.Authorization/roleAssignments/write';
const DELETE = 'Microsoft.Authorization/roleAssignments/delete';
const ROLE = '@Request[Microsoft.Authorization/roleAssignments:RoleDefinitionId]';
const PRINCIPAL = '@Request[Microsoft.Authorization/roleAssignments:PrincipalId]';
const READER = 'ba92f5b4-2d11-453d-a403-e96b0029c9fe';
const BLOB_READER = '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1';
const OWNER = '8e3af657-a8ff-443c-a75c-2fe8c4bcb635';

/**
 * "Examples to delegate Azure role assignment management with conditions"
 * (https://learn.microsoft.com/azure/role-based-access-control/delegate-role-assignments-examples).
 */
describe('Azure conditions: delegating role assignment management', () => {
  const constrainRoles = `(
 (
  !(ActionMatches{'${WRITE}'})
 )
 OR
 (
  ${ROLE} ForAnyOfAnyValues:GuidEquals {${READER}, ${BLOB_READER}}
 )
)
AND
(
 (
  !(ActionMatches{'${DELETE}'})
 )
 OR
 (
  @Resource[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {${READER}, ${BLOB_READER}}
 )
)`;

  it('"Constrain roles": assigning one of the listed roles is allowed, any other is not', () => {
    expect(verdict(constrainRoles, WRITE, { [ROLE]: [BLOB_READER] })).toBe(true);
    expect(verdict(constrainRoles, WRITE, { [ROLE]: [OWNER] })).toBe(false);
  });

  it('the condition does not restrict the actions it does not name', () => {
    expect(verdict(constrainRoles, 'Microsoft.Authorization/roleAssignments/read')).toBe(true);
  });

  it('one AND turned into OR lets any role through', () => {
    const flipped = constrainRoles.replace(/\)\nAND\n\(/, ')\nOR\n(');
    expect(verdict(flipped, WRITE, { [ROLE]: [OWNER] })).toBe(true);
  });

  it('a role the question cannot know makes the verdict unknown, never false', () => {
    expect(verdict(constrainRoles, WRITE)).toBeUndefined();
  });

  const notOthers = `(
 (
  !(ActionMatches{'${WRITE}'})
 )
 OR
 (
  ${ROLE} ForAnyOfAllValues:GuidNotEquals {${OWNER}, 18d7d88d-d35e-4fb5-a5c3-7773c20a72d9, f58310d9-a9f6-439a-9e8d-f62e7b41a168}
 )
)`;

  it('"Allow most roles, but don\'t allow others to assign roles": Owner is refused, Reader is not', () => {
    expect(verdict(notOthers, WRITE, { [ROLE]: [OWNER] })).toBe(false);
    expect(verdict(notOthers, WRITE, { [ROLE]: [READER] })).toBe(true);
  });

  it('"Constrain roles and principal types": a principal type not listed is refused', () => {
    const types = `((!(ActionMatches{'${WRITE}'})) OR (@Request[Microsoft.Authorization/roleAssignments:PrincipalType] ForAnyOfAnyValues:StringEqualsIgnoreCase {'ServicePrincipal'}))`;
    const type = '@Request[Microsoft.Authorization/roleAssignments:PrincipalType]';
    expect(verdict(types, WRITE, { [type]: ['servicePrincipal'] })).toBe(true);
    expect(verdict(types, WRITE, { [type]: ['User'] })).toBe(false);
  });

  it("the bootstrap's own form: a principal of the exclusion list may not be named", () => {
    const self = '10000000-0000-4000-8000-000000000003';
    const condition = `((!(ActionMatches{'${WRITE}'})) OR (${PRINCIPAL} ForAnyOfAllValues:GuidNotEquals {${self}, 10000000-0000-4000-8000-000000000001}))`;
    expect(verdict(condition, WRITE, { [PRINCIPAL]: [self.toUpperCase()] })).toBe(false);
    expect(verdict(condition, WRITE, { [PRINCIPAL]: ['20000000-0000-4000-8000-000000000009'] })).toBe(true);
  });
});

/**
 * "Example Azure role assignment conditions for Blob Storage"
 * (https://learn.microsoft.com/azure/storage/blobs/storage-auth-abac-examples).
 */
describe('Azure conditions: Blob Storage', () => {
  const READ = 'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read';
  const CONTAINER = '@Resource[Microsoft.Storage/storageAccounts/blobServices/containers:name]';

  it('"Read blobs with a blob index tag": the deprecated sub-operation form lets a plain read through', () => {
    const condition = `(
 (
  !(ActionMatches{'${READ}'} AND SubOperationMatches{'Blob.Read.WithTagConditions'})
 )
 OR
 (
  @Resource[Microsoft.Storage/storageAccounts/blobServices/containers/blobs/tags:Project<$key_case_sensitive$>] StringEquals 'Cascade'
 )
)`;
    const tag =
      '@Resource[Microsoft.Storage/storageAccounts/blobServices/containers/blobs/tags:Project<$key_case_sensitive$>]';
    expect(verdict(condition, READ, { [tag]: ['Other'] })).toBe(true);
    expect(verdict(condition, READ, { [tag]: ['Other'] }, 'Blob.Read.WithTagConditions')).toBe(false);
    expect(verdict(condition, READ, { [tag]: ['Cascade'] }, 'Blob.Read.WithTagConditions')).toBe(true);
  });

  it('"Read, write, or delete blobs in named containers": another container is refused', () => {
    const condition = `(
 (
  !(ActionMatches{'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/delete'})
  AND
  !(ActionMatches{'${READ}'})
 )
 OR
 (
  ${CONTAINER} StringEquals 'blobs-example-container'
 )
)`;
    expect(verdict(condition, READ, { [CONTAINER]: ['blobs-example-container'] })).toBe(true);
    expect(verdict(condition, READ, { [CONTAINER]: ['checkpoints'] })).toBe(false);
  });

  it('"Read blobs with a path": StringLike matches the wildcard', () => {
    const path = '@Resource[Microsoft.Storage/storageAccounts/blobServices/containers/blobs:path]';
    const condition = `((!(ActionMatches{'${READ}'})) OR (${path} StringLike 'readonly/*'))`;
    expect(verdict(condition, READ, { [path]: ['readonly/a/b.bin'] })).toBe(true);
    expect(verdict(condition, READ, { [path]: ['models/b.bin'] })).toBe(false);
  });

  it('"Existing blobs must have blob index tag keys": ForAllOfAnyValues over the keys', () => {
    const keys = '@Resource[Microsoft.Storage/storageAccounts/blobServices/containers/blobs/tags&$keys$&]';
    const condition = `((!(ActionMatches{'${READ}'})) OR (${keys} ForAllOfAnyValues:StringEquals {'Project', 'Program'}))`;
    expect(verdict(condition, READ, { [keys]: ['Project'] })).toBe(true);
    expect(verdict(condition, READ, { [keys]: ['Project', 'Secret'] })).toBe(false);
  });

  it('"Allow read access to blobs after a specific date and time" and private links: environment attributes', () => {
    const condition = `((!(ActionMatches{'${READ}'})) OR (@Environment[UtcNow] DateTimeGreaterThan '2023-05-01T13:00:00.000Z' AND @Environment[isPrivateLink] BoolEquals true))`;
    expect(
      verdict(condition, READ, {
        '@Environment[UtcNow]': ['2024-01-01T00:00:00Z'],
        '@Environment[isPrivateLink]': [true],
      }),
    ).toBe(true);
    expect(
      verdict(condition, READ, {
        '@Environment[UtcNow]': ['2022-01-01T00:00:00Z'],
        '@Environment[isPrivateLink]': [true],
      }),
    ).toBe(false);
    expect(verdict(condition, READ)).toBeUndefined();
  });

  it('compares a resource attribute with a principal attribute, and reads Exists', () => {
    const condition = `((!(ActionMatches{'${READ}'})) OR (@Resource[Microsoft.Storage/storageAccounts/blobServices/containers/blobs/tags:Project<$key_case_sensitive$>] StringEquals @Principal[Microsoft.Directory/CustomSecurityAttributes/Id:Engineering_Project] AND NOT Exists @Request[Microsoft.Storage/storageAccounts/blobServices/containers/blobs:snapshot]))`;
    const attrs = {
      '@Resource[Microsoft.Storage/storageAccounts/blobServices/containers/blobs/tags:Project<$key_case_sensitive$>]':
        ['Cascade'],
      '@Principal[Microsoft.Directory/CustomSecurityAttributes/Id:Engineering_Project]': ['Cascade'],
      '@Request[Microsoft.Storage/storageAccounts/blobServices/containers/blobs:snapshot]': [],
    };
    expect(verdict(condition, READ, attrs)).toBe(true);
  });
});

describe('Azure conditions: what the grammar does not read', () => {
  it.each([
    ["@Request[x] StringSortOf 'a'", 'unknown operator'],
    ["(ActionMatches{'a'}", "expected ')'"],
    ["ActionMatches{'a'} AND", 'expected a value'],
    ["@Request[x] StringEquals 'a", 'unterminated string'],
    ['', 'empty condition'],
  ])('%s is an error (%s), never a condition that holds or not', (text, message) => {
    const read = readCondition(text);
    expect('error' in read && read.error).toContain(message);
  });
});
