// eslint-disable-next-line @typescript-eslint/no-require-imports
const { replaceBlocks } = require('../docs/blocks.cjs') as {
  replaceBlocks(
    readme: string,
    transcript: (name: string) => string | undefined,
  ): { text: string; stale: string[]; unknown: string[] };
};

const block = (name: string, body: string) =>
  `<!-- transcript:${name} -->\n\`\`\`\n${body}\`\`\`\n<!-- /transcript -->`;

describe("README's transcript blocks", () => {
  const readme = `# Title\n\n${block('a', 'old output\n')}\n\ntext\n\n${block('b', 'same\n')}\n`;

  it('replaces a block whose command prints something else and names it stale', () => {
    const { text, stale } = replaceBlocks(readme, (name) => (name === 'a' ? 'new output' : 'same\n'));
    expect(stale).toEqual(['a']);
    expect(text).toContain(block('a', 'new output\n'));
    expect(text).toContain(block('b', 'same\n'));
    expect(text.startsWith('# Title\n\n')).toBe(true);
  });

  it('finds nothing stale when every command prints what the block shows', () => {
    const { text, stale } = replaceBlocks(readme, (name) => (name === 'a' ? 'old output\n' : 'same\n'));
    expect(stale).toEqual([]);
    expect(text).toBe(readme);
  });

  it('names a block no command is known for and leaves it as it is', () => {
    const { text, unknown } = replaceBlocks(readme, (name) => (name === 'a' ? undefined : 'same\n'));
    expect(unknown).toEqual(['a']);
    expect(text).toBe(readme);
  });
});
