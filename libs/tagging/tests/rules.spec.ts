import { standardTags, tagRules, type Tags } from '../src/index';

type Cloud = keyof typeof tagRules;

describe('tagRules', () => {
  const prodStore = standardTags({
    owner: 'ml-platform',
    costCenter: 'cc-1234',
    environment: 'prod',
    dataClassification: 'confidential',
    project: 'checkpoints-gcp',
    stack: 'prod',
    store: 'llm-pretrain',
  });

  it.each<Cloud>(['aws', 'gcp', 'azure'])('%s accepts the standard tags of a real store', (cloud) => {
    expect(tagRules[cloud](prodStore)).toStrictEqual([]);
  });

  it.each<[Cloud, Tags, string]>([
    ['aws', { 'aws:owner': 'x' }, "AWS tag 'aws:owner': key starts with 'aws:', a prefix AWS reserves"],
    ['aws', { 'AWS:owner': 'x' }, "key starts with 'aws:'"],
    ['aws', { 'team#1': 'x' }, "AWS tag 'team#1': key contains '#'; allowed: ASCII letters and digits"],
    ['aws', { team: 'Café' }, "AWS tag 'team': value contains 'é'"],
    ['aws', { ['k'.repeat(129)]: 'x' }, 'key is 129 characters, over the 128 limit'],
    ['aws', { k: 'v'.repeat(257) }, "AWS tag 'k': value is 257 characters, over the 256 limit"],
    ['aws', { '': 'x' }, "AWS tag '': key is empty"],
    ['aws', numberedTags(51), 'at most 50 AWS tags fit on a resource; got 51'],
    ['gcp', { Owner: 'x' }, "GCP label 'Owner': key contains 'O'"],
    ['gcp', { '2fa': 'x' }, "GCP label '2fa': key starts with '2', not a lowercase letter"],
    ['gcp', { _x: 'x' }, "key starts with '_', not a lowercase letter"],
    ['gcp', { owner: 'ML Platform' }, "GCP label 'owner': value contains 'M', 'L', ' ', 'P'"],
    ['gcp', { owner: 'équipe' }, "value contains 'é'"],
    ['gcp', { ['k'.repeat(64)]: 'x' }, 'key is 64 characters, over the 63 limit'],
    ['gcp', { k: 'v'.repeat(64) }, 'value is 64 characters, over the 63 limit'],
    ['gcp', numberedTags(65), 'at most 64 GCP labels fit on a resource; got 65'],
    ['azure', { 'team/owner': 'x' }, "Azure tag 'team/owner': key contains '/'; allowed: anything but"],
    ['azure', { 'a<b>%&\\?': 'x' }, "key contains '<', '>', '%', '&', '\\', '?'"],
    ['azure', { ['k'.repeat(129)]: 'x' }, 'key is 129 characters, over the 128 limit'],
    ['azure', { k: 'v'.repeat(257) }, 'value is 257 characters, over the 256 limit'],
    ['azure', { Owner: 'a', owner: 'b' }, "Azure tag keys 'Owner' and 'owner' are one and the same key"],
    ['azure', numberedTags(51), 'at most 50 Azure tags fit on a resource; got 51'],
  ])('%s finds the problem in %j', (cloud, tags, problem) => {
    expect(tagRules[cloud](tags)).toContainEqual(expect.stringContaining(problem));
  });

  it.each<[Cloud, Tags]>([
    ['aws', { 'Team Name': 'ML platform: a+b=c @ x/y_z.-' }],
    ['aws', { k: '' }],
    ['gcp', { 'team-name_1': 'ml-platform_2' }],
    ['gcp', { k: '' }],
    ['azure', { 'Team: ML #1': 'R&D / Café 😀 <x>' }],
    ['azure', numberedTags(50)],
  ])('%s accepts %j', (cloud, tags) => {
    expect(tagRules[cloud](tags)).toStrictEqual([]);
  });
});

function numberedTags(count: number): Tags {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'v']));
}
