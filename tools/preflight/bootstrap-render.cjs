/**
 * The bootstrap applied as rendered: the CI identities' rights in the bootstrap's offline render
 * (dist/synth/bootstrap/<stack>.json, `npx nx run bootstrap:synth`) against what each cloud holds, read
 * through its official SDK (Get and List calls, GET requests only). One check per identity or guard; a
 * difference fails it, naming the resource, the field and both values. A rendered value unknown until the
 * deploy, or secret, is not compared, and the check says which.
 */
const { existsSync, readFileSync } = require('node:fs');
const { GetCallerIdentityCommand } = require('@aws-sdk/client-sts');
const {
  GetPolicyCommand,
  GetPolicyVersionCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  ListAttachedRolePoliciesCommand,
  ListRolePoliciesCommand,
} = require('@aws-sdk/client-iam');
const { DescribeBackupVaultCommand } = require('@aws-sdk/client-backup');
const {
  bearerTokenAuthenticationPolicy,
  createDefaultHttpClient,
  createPipelineFromOptions,
  createPipelineRequest,
} = require('@azure/core-rest-pipeline');
const { missing } = require('./checks.cjs');
const { failure: gcpFailure } = require('./gcp.cjs');

/**
 * @typedef {{ type: string, name: string, inputs: Record<string, any> }} Resource
 * @typedef {{ project: string, stack: string, placement?: Record<string, string>, resources: Resource[], outputs: Record<string, unknown> }} Render
 * @typedef {(name: string, question: () => Promise<string>) => Promise<void>} Ask
 * @typedef {{ differences: string[], skipped: string[] }} Comparison
 */

/** How libs/render writes a secret and a value unknown until the deploy (its SECRET_MARK, UNKNOWN_MARK). */
const RENDER_MARKS = ['[secret]', '[unknown]'];

/** How to get a fresh render: the bootstrap:preflight target runs it first. */
const RENDER_COMMAND = 'npx nx run bootstrap:synth';

/**
 * The render at `path`, checked to be the bootstrap's and of this config's placement (a render of another
 * region, project or subscription is stale).
 * @param {string} path @param {Record<string, any>} config
 * @returns {{ render: Render } | { problem: string }}
 */
function readBootstrapRender(path, config) {
  if (!existsSync(path)) return { problem: `no render at ${path}: run ${RENDER_COMMAND} first` };
  /** @type {Render} */
  let render;
  try {
    render = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    return { problem: `${path} is not a render (${error instanceof Error ? error.message : String(error)})` };
  }
  if (render?.project !== 'checkpoints-bootstrap' || !Array.isArray(render.resources)) {
    return { problem: `${path} is a render of ${render?.project ?? 'nothing'}, not checkpoints-bootstrap` };
  }
  const stale = Object.entries(render.placement ?? {}).filter(
    ([key, value]) => config[key] !== undefined && String(config[key]) !== value,
  );
  if (stale.length > 0) {
    return {
      problem: `${path} is stale: ${stale.map(([key, value]) => `${key} rendered ${value}, configured ${config[key]}`).join(', ')}; run ${RENDER_COMMAND}`,
    };
  }
  return { render };
}

/** @param {Render} render @param {string} type */
function ofType(render, type) {
  return render.resources.filter((resource) => resource.type === type);
}

/** @param {unknown} value @returns {boolean} whether a rendered value holds a secret or unknown */
function marked(value) {
  return RENDER_MARKS.some((mark) => JSON.stringify(value ?? null).includes(mark));
}

/**
 * A value in a form where equal rights compare equal: object keys sorted, null, undefined and empty lists
 * left out, every list a sorted set (the lists compared here, actions, principals, scopes, statements, are
 * sets to the clouds).
 * @param {unknown} value @returns {unknown}
 */
function canonical(value) {
  if (Array.isArray(value)) {
    const items = value
      .map(canonical)
      .filter((item) => item !== undefined)
      .map((item) => JSON.stringify(item));
    return [...new Set(items)].sort().map((item) => JSON.parse(item));
  }
  if (typeof value === 'object' && value !== null) {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const key of Object.keys(value).sort()) {
      const item = canonical(/** @type {Record<string, unknown>} */ (value)[key]);
      if (item === undefined || item === null || (Array.isArray(item) && item.length === 0)) continue;
      out[key] = item;
    }
    return out;
  }
  return value;
}

/** @param {unknown} value */
function shown(value) {
  const form = canonical(value);
  const none = form === undefined || form === null || (Array.isArray(form) && form.length === 0);
  return none ? '(none)' : JSON.stringify(form);
}

/** @returns {Comparison} */
function comparison() {
  return { differences: [], skipped: [] };
}

/**
 * @param {Comparison} result @param {string} field @param {unknown} rendered @param {unknown} live
 */
function compareField(result, field, rendered, live) {
  if (marked(rendered)) {
    result.skipped.push(field);
    return;
  }
  if (shown(rendered) !== shown(live))
    result.differences.push(`${field}: rendered ${shown(rendered)}, live ${shown(live)}`);
}

/**
 * Two sets of items (policy statements, deny rules, federated credentials), each named by `label`: an item
 * only one side holds, or held differently under one label, is a difference showing both.
 * @param {Comparison} result @param {string} field @param {readonly unknown[]} rendered
 * @param {readonly unknown[]} live @param {(item: any, index: number) => string} label
 */
function compareItems(result, field, rendered, live, label) {
  if (marked(rendered)) {
    result.skipped.push(field);
    return;
  }
  // Items held alike on both sides match whatever their labels; the rest pair up by label.
  const held = (/** @type {readonly unknown[]} */ items) => new Set(items.map(shown));
  const [renderedSet, liveSet] = [held(rendered), held(live)];
  const keyed = (/** @type {readonly unknown[]} */ items, /** @type {Set<string>} */ other) => {
    /** @type {Map<string, string[]>} */
    const map = new Map();
    items
      .filter((item) => !other.has(shown(item)))
      .forEach((item, index) => {
        const name = label(item, index);
        map.set(name, [...(map.get(name) ?? []), shown(item)].sort());
      });
    return map;
  };
  const [ours, theirs] = [keyed(rendered, liveSet), keyed(live, renderedSet)];
  for (const name of new Set([...ours.keys(), ...theirs.keys()])) {
    const [a, b] = [ours.get(name) ?? [], theirs.get(name) ?? []];
    if (a.join('\n') === b.join('\n')) continue;
    const side = (/** @type {string[]} */ items) => (items.length === 0 ? '(none)' : items.join(' and '));
    const what = a.length === 0 ? 'added live' : b.length === 0 ? 'missing live' : 'changed';
    result.differences.push(`${field} ${name} ${what}: rendered ${side(a)}, live ${side(b)}`);
  }
}

/**
 * The check's answer: every difference fails it; fields not compared are named.
 * @param {Comparison} result @param {string} compared what matched
 */
function verdict(result, compared) {
  const unknown = result.skipped.length
    ? `; not compared, unknown or secret at render: ${result.skipped.join(', ')}`
    : '';
  if (result.differences.length > 0) return missing(`${result.differences.join('; ')}${unknown}`);
  return `${compared} as rendered${unknown}`;
}

/** Every string in a value with `from` replaced by `to`. @param {unknown} value @param {RegExp} from @param {string} to @returns {any} */
function substituted(value, from, to) {
  if (typeof value === 'string') return value.replace(from, to);
  if (Array.isArray(value)) return value.map((item) => substituted(item, from, to));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituted(item, from, to)]));
  }
  return value;
}

/**
 * An IAM policy document, as the render holds it (JSON) or as IAM answers it ("URL-encoded compliant with
 * RFC 3986", https://docs.aws.amazon.com/IAM/latest/APIReference/API_GetRolePolicy.html,
 * https://docs.aws.amazon.com/IAM/latest/APIReference/API_Role.html,
 * https://docs.aws.amazon.com/IAM/latest/APIReference/API_PolicyVersion.html), in a form where equal
 * documents compare equal: an element that takes one value or a list of them (Action, NotAction, Resource,
 * NotResource, each Principal, each condition key, https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_grammar.html)
 * always a list, condition values strings (IAM compares them as strings), statements in any order.
 * @param {unknown} text @returns {{ Version?: string, Statement: Record<string, unknown>[] }}
 */
function policyDocument(text) {
  const raw = typeof text === 'string' ? text.trim() : JSON.stringify(text ?? {});
  const parsed = JSON.parse(raw.startsWith('%') ? decodeURIComponent(raw) : raw);
  const list = (/** @type {unknown} */ value) =>
    value === undefined ? undefined : [value].flat().map((item) => String(item));
  const statements = [parsed?.Statement ?? []].flat().map((/** @type {Record<string, any>} */ statement) => {
    const { Action, NotAction, Resource, NotResource, Principal, NotPrincipal, Condition, ...rest } =
      statement;
    const principal = (/** @type {unknown} */ value) =>
      typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, list(item)]))
        : value;
    const condition =
      Condition &&
      Object.fromEntries(
        Object.entries(Condition).map(([operator, keys]) => [
          operator,
          Object.fromEntries(Object.entries(keys ?? {}).map(([key, item]) => [key, list(item)])),
        ]),
      );
    return /** @type {Record<string, unknown>} */ (
      canonical({
        ...rest,
        Action: list(Action),
        NotAction: list(NotAction),
        Resource: list(Resource),
        NotResource: list(NotResource),
        Principal: principal(Principal),
        NotPrincipal: principal(NotPrincipal),
        Condition: condition,
      })
    );
  });
  return {
    Version: parsed?.Version,
    Statement: /** @type {Record<string, unknown>[]} */ (canonical(statements)),
  };
}

/**
 * @param {Comparison} result @param {string} field @param {unknown} rendered @param {unknown} live
 */
function comparePolicy(result, field, rendered, live) {
  if (marked(rendered)) {
    result.skipped.push(field);
    return;
  }
  const [ours, theirs] = [policyDocument(rendered), policyDocument(live)];
  compareField(result, `${field} Version`, ours.Version, theirs.Version);
  compareItems(result, `${field} statement`, ours.Statement, theirs.Statement, (statement, index) =>
    statement.Sid ? String(statement.Sid) : `#${index + 1}`,
  );
}

/** A rendered resource the cloud does not hold. */
class Absent extends Error {}

/** @param {string} what @returns {never} */
function absent(what) {
  throw new Absent(what);
}

/**
 * Asks each question of one cloud, then reports them: when the cloud holds none of the rendered resources
 * (the bootstrap's first up is still to come, or the credentials reach elsewhere) one line fails saying so;
 * otherwise each line as answered, a rendered resource the cloud does not hold failing.
 * @param {string} cloud @param {Ask} ask
 * @returns {{ add: Ask, report: () => Promise<void> }}
 */
function comparisons(cloud, ask) {
  /** @type {Array<{ name: string, outcome: { answer: string } | { error: unknown } }>} */
  const answered = [];
  return {
    add: async (name, question) => {
      try {
        answered.push({ name, outcome: { answer: await question() } });
      } catch (error) {
        answered.push({ name, outcome: { error } });
      }
    },
    report: async () => {
      const none = answered.every(({ outcome }) => 'error' in outcome && outcome.error instanceof Absent);
      if (answered.length > 0 && none) {
        return ask(
          `${cloud}: bootstrap applied as rendered`,
          // Fail closed: nothing to compare is nothing verified, whether the first up is still to come or
          // these credentials reach another account, project or subscription than the bootstrap's.
          async () =>
            missing(
              `none of its ${answered.length} rendered CI identities and guards exists here, nothing is verified: the bootstrap is not applied yet (npx nx run bootstrap:admin-up, then run this again), or these credentials reach another ${cloud === 'AWS' ? 'account' : cloud === 'GCP' ? 'project' : 'subscription'} than the bootstrap's`,
            ),
        );
      }
      for (const { name, outcome } of answered) {
        await ask(name, async () => {
          if ('answer' in outcome) return outcome.answer;
          if (outcome.error instanceof Absent) {
            return missing(
              `${outcome.error.message}, which the render holds: apply the bootstrap (npx nx run bootstrap:admin-up)`,
            );
          }
          throw outcome.error;
        });
      }
    },
  };
}

/** @param {unknown} error */
function notFound(error) {
  const { name, statusCode, response } = /** @type {any} */ (error ?? {});
  return (
    name === 'NoSuchEntityException' ||
    name === 'ResourceNotFoundException' ||
    statusCode === 404 ||
    response?.status === 404
  );
}

/**
 * The account the render's ARNs name (synth renders with a mock account), from its CI role ARNs.
 * @param {Render} render
 */
function renderedAwsAccount(render) {
  const arn = Object.values(render.outputs ?? {}).find(
    (value) => typeof value === 'string' && /^arn:aws[a-z-]*:iam::\d{12}:role\//.test(value),
  );
  return typeof arn === 'string' ? arn.split(':')[4] : undefined;
}

/**
 * Every page of an IAM List call (Marker, IsTruncated, https://docs.aws.amazon.com/IAM/latest/APIReference/API_ListRolePolicies.html).
 * @template T @param {(marker?: string) => Promise<{ IsTruncated?: boolean, Marker?: string, items: T[] }>} page
 */
async function allPages(page) {
  /** @type {T[]} */
  const items = [];
  /** @type {string | undefined} */
  let marker;
  do {
    const answer = await page(marker);
    items.push(...answer.items);
    marker = answer.IsTruncated ? answer.Marker : undefined;
  } while (marker);
  return items;
}

/**
 * AWS: each CI role's trust policy, permissions boundary, inline policies (GetRole, ListRolePolicies,
 * GetRolePolicy) and attached managed policies, the bootstrap's own compared document by document
 * (ListAttachedRolePolicies, GetPolicy for the default version, GetPolicyVersion); each backup vault's lock
 * (DescribeBackupVault).
 * @param {import('./aws.cjs').AwsClients & { backup: import('@aws-sdk/client-backup').BackupClient }} clients
 * @param {Render} render @param {Ask} report
 */
async function awsAsRendered(clients, render, report) {
  const { add: ask, report: reported } = comparisons('AWS', report);
  const roles = ofType(render, 'aws:iam/role:Role');
  const inline = ofType(render, 'aws:iam/rolePolicy:RolePolicy');
  const attachments = ofType(render, 'aws:iam/rolePolicyAttachment:RolePolicyAttachment');
  const policies = ofType(render, 'aws:iam/policy:Policy');
  const renderAccount = renderedAwsAccount(render);
  /** @type {Promise<string> | undefined} */
  let account;
  // GetCallerIdentity (https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html): the
  // account the render's mock account stands for.
  const liveAccount = () =>
    (account ??= clients.sts.send(new GetCallerIdentityCommand({})).then(({ Account }) => String(Account)));
  const live = async (/** @type {unknown} */ value) =>
    renderAccount
      ? substituted(value, new RegExp(`:${renderAccount}:`, 'g'), `:${await liveAccount()}:`)
      : value;
  for (const role of roles) {
    const name = String(role.inputs['name']);
    await ask(`AWS: CI role ${name} as rendered`, async () => {
      const result = comparison();
      /** @type {import('@aws-sdk/client-iam').Role | undefined} */
      let found;
      try {
        // GetRole (https://docs.aws.amazon.com/IAM/latest/APIReference/API_GetRole.html).
        found = (await clients.iam.send(new GetRoleCommand({ RoleName: name }))).Role;
      } catch (error) {
        if (notFound(error)) return absent(`no role ${name}`);
        throw error;
      }
      const rendered = await live(role.inputs);
      comparePolicy(
        result,
        'trust policy',
        rendered['assumeRolePolicy'],
        found?.AssumeRolePolicyDocument ?? '{}',
      );
      compareField(
        result,
        'permissions boundary',
        rendered['permissionsBoundary'],
        found?.PermissionsBoundary?.PermissionsBoundaryArn,
      );
      const renderedInline = new Map(
        inline
          .filter((policy) => policy.inputs['role'] === name)
          .map((policy) => [String(policy.inputs['name']), policy.inputs['policy']]),
      );
      const liveInline = await allPages(async (Marker) => {
        const page = await clients.iam.send(new ListRolePoliciesCommand({ RoleName: name, Marker }));
        return { ...page, items: page.PolicyNames ?? [] };
      });
      compareField(result, 'inline policy names', [...renderedInline.keys()], liveInline);
      for (const policyName of liveInline.filter((each) => renderedInline.has(each))) {
        const { PolicyDocument } = await clients.iam.send(
          new GetRolePolicyCommand({ RoleName: name, PolicyName: policyName }),
        );
        comparePolicy(
          result,
          `inline policy ${policyName}`,
          await live(renderedInline.get(policyName)),
          PolicyDocument,
        );
      }
      const renderedArns = await live([
        ...attachments.filter((each) => each.inputs['role'] === name).map((each) => each.inputs['policyArn']),
        ...(role.inputs['managedPolicyArns'] ?? []),
      ]);
      const liveArns = await allPages(async (Marker) => {
        const page = await clients.iam.send(new ListAttachedRolePoliciesCommand({ RoleName: name, Marker }));
        return { ...page, items: (page.AttachedPolicies ?? []).map((each) => String(each.PolicyArn)) };
      });
      compareField(result, 'attached managed policies', renderedArns, liveArns);
      for (const policy of policies) {
        const arn = `arn:aws:iam::${await liveAccount()}:policy${policy.inputs['path'] ?? '/'}${policy.inputs['name']}`;
        if (!liveArns.includes(arn) || !renderedArns.includes(arn)) continue;
        const { Policy } = await clients.iam.send(new GetPolicyCommand({ PolicyArn: arn }));
        const { PolicyVersion } = await clients.iam.send(
          new GetPolicyVersionCommand({ PolicyArn: arn, VersionId: Policy?.DefaultVersionId }),
        );
        comparePolicy(
          result,
          `managed policy ${policy.inputs['name']}`,
          await live(policy.inputs['policy']),
          PolicyVersion?.Document,
        );
      }
      return verdict(result, `trust, ${liveInline.length} inline and ${liveArns.length} attached policies`);
    });
  }
  for (const lock of ofType(render, 'aws:backup/vaultLockConfiguration:VaultLockConfiguration')) {
    const vault = String(lock.inputs['backupVaultName']);
    await ask(`AWS: backup vault ${vault} lock as rendered`, async () => {
      const result = comparison();
      // DescribeBackupVault: Locked, MinRetentionDays, MaxRetentionDays, and LockDate, after which the lock
      // cannot be changed or removed (compliance mode); a lock without one is governance mode
      // (https://docs.aws.amazon.com/aws-backup/latest/devguide/API_DescribeBackupVault.html,
      // https://docs.aws.amazon.com/aws-backup/latest/devguide/vault-lock.html).
      let found;
      try {
        found = await clients.backup.send(new DescribeBackupVaultCommand({ BackupVaultName: vault }));
      } catch (error) {
        if (notFound(error)) return absent(`no backup vault ${vault}`);
        throw error;
      }
      const inputs = lock.inputs;
      compareField(result, 'Locked', true, found.Locked);
      compareField(result, 'MinRetentionDays', inputs['minRetentionDays'], found.MinRetentionDays);
      compareField(result, 'MaxRetentionDays', inputs['maxRetentionDays'], found.MaxRetentionDays);
      compareField(
        result,
        'mode',
        inputs['changeableForDays'] === undefined ? 'governance' : 'compliance',
        found.LockDate ? 'compliance' : 'governance',
      );
      return verdict(result, 'lock');
    });
  }
  await reported();
}

/**
 * The CI project's number the render's mock one stands for, from the workload identity provider it names.
 * @param {Render} render
 */
function renderedGcpProjectNumber(render) {
  const provider = Object.values(render.outputs ?? {}).find(
    (value) =>
      typeof value === 'string' && /^projects\/\d+\/locations\/global\/workloadIdentityPools\//.test(value),
  );
  return typeof provider === 'string' ? provider.split('/')[1] : undefined;
}

/**
 * GCP: each custom role's permissions (IAM roles.get), each deny policy's rules (IAM v2 policies.get) and
 * the workload identity provider's condition, mapping and OIDC settings (workloadIdentityPools.providers.get).
 * @param {import('./gcp.cjs').Get} get @param {string | undefined} ciProject @param {Render} render @param {Ask} report
 */
async function gcpAsRendered(get, ciProject, render, report) {
  const { add: ask, report: reported } = comparisons('GCP', report);
  const renderNumber = renderedGcpProjectNumber(render);
  const renderProject = new RegExp(`projects/${renderNumber}/`, 'g');
  /** @type {Promise<string> | undefined} */
  let number;
  // projects.get names the project by its number, projects/N
  // (https://cloud.google.com/resource-manager/reference/rest/v3/projects#Project); asked only for a value
  // that names the CI project by synth's mock number.
  const projectNumber = async () => {
    try {
      const found = await get(
        `https://cloudresourcemanager.googleapis.com/v3/projects/${encodeURIComponent(ciProject ?? '')}`,
      );
      return String(found?.name ?? '').split('/')[1] ?? '';
    } catch (error) {
      return missing(
        `the CI project ${ciProject}'s number, which the rendered values name, cannot be read (${gcpFailure(error)}): not compared, counted as different`,
      );
    }
  };
  const live = async (/** @type {unknown} */ value) => {
    if (!renderNumber || !JSON.stringify(value ?? null).match(renderProject)) return value;
    if (!ciProject) return missing('gcp:project is not set: the CI project number is unknown');
    number ??= projectNumber();
    return substituted(value, renderProject, `projects/${await number}/`);
  };
  /** @param {string} url @param {string} what */
  const read = async (url, what) => {
    try {
      return await get(url);
    } catch (error) {
      if (notFound(error)) return absent(`no ${what}`);
      throw error;
    }
  };
  for (const role of ofType(render, 'gcp:projects/iAMCustomRole:IAMCustomRole')) {
    const { project, roleId } = role.inputs;
    await ask(`GCP: custom role ${roleId} in ${project} as rendered`, async () => {
      const result = comparison();
      // projects.roles.get: includedPermissions, stage (GA unless set), deleted
      // (https://cloud.google.com/iam/docs/reference/rest/v1/projects.roles#Role).
      const found = await read(
        `https://iam.googleapis.com/v1/projects/${encodeURIComponent(project)}/roles/${encodeURIComponent(roleId)}`,
        `custom role ${roleId} in ${project}`,
      );
      compareField(result, 'includedPermissions', role.inputs['permissions'], found?.includedPermissions);
      compareField(result, 'stage', role.inputs['stage'] ?? 'GA', found?.stage ?? 'GA');
      compareField(result, 'deleted', false, found?.deleted === true);
      return verdict(result, `${(found?.includedPermissions ?? []).length} permissions`);
    });
  }
  for (const policy of ofType(render, 'gcp:iam/denyPolicy:DenyPolicy')) {
    const parent = decodeURIComponent(String(policy.inputs['parent']));
    const name = String(policy.inputs['name']);
    await ask(`GCP: deny policy ${name} on ${parent} as rendered`, async () => {
      const result = comparison();
      // policies.get (IAM v2): the attachment point URL-encoded in the name
      // (https://cloud.google.com/iam/docs/reference/rest/v2/policies/get), rules of DenyRule
      // (https://cloud.google.com/iam/docs/reference/rest/v2/policies#DenyRule).
      const found = await read(
        `https://iam.googleapis.com/v2/policies/${encodeURIComponent(parent)}/denypolicies/${encodeURIComponent(name)}`,
        `deny policy ${name} on ${parent}`,
      );
      compareItems(
        result,
        'rule',
        await live(policy.inputs['rules'] ?? []),
        found?.rules ?? [],
        (rule, index) => (rule?.description ? JSON.stringify(rule.description) : `#${index + 1}`),
      );
      return verdict(result, `${(found?.rules ?? []).length} rules`);
    });
  }
  for (const provider of ofType(
    render,
    'gcp:iam/workloadIdentityPoolProvider:WorkloadIdentityPoolProvider',
  )) {
    const { project, workloadIdentityPoolId: pool, workloadIdentityPoolProviderId: id } = provider.inputs;
    await ask(`GCP: workload identity provider ${pool}/${id} as rendered`, async () => {
      const result = comparison();
      // workloadIdentityPools.providers.get: attributeCondition, attributeMapping, oidc, disabled, state
      // (https://cloud.google.com/iam/docs/reference/rest/v1/projects.locations.workloadIdentityPools.providers#WorkloadIdentityPoolProvider).
      const found = await read(
        `https://iam.googleapis.com/v1/projects/${encodeURIComponent(project ?? ciProject ?? '')}/locations/global/workloadIdentityPools/${encodeURIComponent(pool)}/providers/${encodeURIComponent(id)}`,
        `workload identity provider ${pool}/${id}`,
      );
      const rendered = await live(provider.inputs);
      compareField(result, 'attributeCondition', rendered['attributeCondition'], found?.attributeCondition);
      compareField(result, 'attributeMapping', rendered['attributeMapping'], found?.attributeMapping);
      compareField(result, 'oidc.issuerUri', rendered['oidc']?.['issuerUri'], found?.oidc?.issuerUri);
      compareField(
        result,
        'oidc.allowedAudiences',
        rendered['oidc']?.['allowedAudiences'],
        found?.oidc?.allowedAudiences,
      );
      compareField(result, 'disabled', rendered['disabled'] === true, found?.disabled === true);
      compareField(result, 'state', 'ACTIVE', found?.state);
      return verdict(result, 'condition, mapping and OIDC settings');
    });
  }
  await reported();
}

/**
 * A GET of Azure Resource Manager through the SDK's pipeline, with the caller's token for it.
 * @param {import('./azure.cjs').AzureConnection} connection @param {string} url
 */
async function armGet(connection, url) {
  const pipeline = createPipelineFromOptions({});
  pipeline.addPolicy(
    bearerTokenAuthenticationPolicy({
      credential: connection.credential,
      scopes: 'https://management.azure.com/.default',
    }),
  );
  const response = await pipeline.sendRequest(
    connection.httpClient ?? createDefaultHttpClient(),
    createPipelineRequest({ url, method: 'GET' }),
  );
  /** @type {any} */
  let body = {};
  try {
    body = response.bodyAsText ? JSON.parse(response.bodyAsText) : {};
  } catch {
    body = {};
  }
  if (response.status !== 200) {
    throw Object.assign(new Error(body?.error?.message ?? `HTTP ${response.status} for ${url}`), {
      statusCode: response.status,
      code: body?.error?.code,
    });
  }
  return body;
}

/**
 * Azure: each custom role definition's actions, data actions and assignable scopes (Role Definitions - Get)
 * and each CI identity's federated credentials, all of them (Federated Identity Credentials - List): a
 * credential added live is a trust the render does not hold.
 * @param {import('./azure.cjs').AzureConnection} connection @param {string | undefined} subscriptionId
 * @param {Render} render @param {Ask} report
 */
async function azureAsRendered(connection, subscriptionId, render, report) {
  const { add: ask, report: reported } = comparisons('Azure', report);
  const management = 'https://management.azure.com';
  for (const definition of ofType(render, 'azure-native:authorization:RoleDefinition')) {
    const { roleName, scope, roleDefinitionId } = definition.inputs;
    await ask(`Azure: custom role ${roleName} as rendered`, async () => {
      const result = comparison();
      // Role Definitions - Get: properties.roleName, permissions (actions, notActions, dataActions,
      // notDataActions), assignableScopes
      // (https://learn.microsoft.com/rest/api/authorization/role-definitions/get).
      let found;
      try {
        found = await armGet(
          connection,
          `${management}${scope}/providers/Microsoft.Authorization/roleDefinitions/${roleDefinitionId}?api-version=2022-04-01`,
        );
      } catch (error) {
        if (notFound(error)) return absent(`no role definition ${roleDefinitionId} at ${scope}`);
        throw error;
      }
      const properties = found?.properties ?? {};
      const permissions = (/** @type {any[]} */ list, /** @type {string} */ key) =>
        (list ?? []).flatMap((each) => each?.[key] ?? []);
      compareField(result, 'roleName', roleName, properties.roleName);
      for (const key of ['actions', 'notActions', 'dataActions', 'notDataActions']) {
        compareField(
          result,
          key,
          permissions(definition.inputs['permissions'], key),
          permissions(properties.permissions, key),
        );
      }
      compareField(
        result,
        'assignableScopes',
        definition.inputs['assignableScopes'],
        properties.assignableScopes,
      );
      return verdict(result, 'actions, data actions and assignable scopes');
    });
  }
  const credentials = ofType(render, 'azure-native:managedidentity:FederatedIdentityCredential');
  for (const identity of ofType(render, 'azure-native:managedidentity:UserAssignedIdentity')) {
    const { resourceGroupName: group, resourceName: name } = identity.inputs;
    await ask(`Azure: identity ${name} federated credentials as rendered`, async () => {
      if (!subscriptionId) return missing('no subscription to ask');
      const result = comparison();
      /** @type {any[]} */
      const live = [];
      // Federated Identity Credentials - List, page by page (nextLink)
      // (https://learn.microsoft.com/rest/api/managedidentity/federated-identity-credentials/list).
      /** @type {string | undefined} */
      let url = `${management}/subscriptions/${subscriptionId}/resourceGroups/${group}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${name}/federatedIdentityCredentials?api-version=2023-01-31`;
      try {
        while (url) {
          const page = await armGet(connection, url);
          live.push(...(page?.value ?? []));
          url = page?.nextLink;
        }
      } catch (error) {
        if (notFound(error)) return absent(`no managed identity ${name} in ${group}`);
        throw error;
      }
      const rendered = credentials
        .filter((each) => each.inputs['resourceName'] === name && each.inputs['resourceGroupName'] === group)
        .map(({ inputs }) => ({
          name: inputs['federatedIdentityCredentialResourceName'],
          issuer: inputs['issuer'],
          subject: inputs['subject'],
          audiences: inputs['audiences'],
        }));
      compareItems(
        result,
        'federated credential',
        rendered,
        live.map((each) => ({
          name: each?.name,
          issuer: each?.properties?.issuer,
          subject: each?.properties?.subject,
          audiences: each?.properties?.audiences,
        })),
        (credential) => String(credential?.name),
      );
      return verdict(result, `${live.length} federated credentials`);
    });
  }
  await reported();
}

module.exports = {
  awsAsRendered,
  azureAsRendered,
  gcpAsRendered,
  policyDocument,
  readBootstrapRender,
  RENDER_COMMAND,
};
