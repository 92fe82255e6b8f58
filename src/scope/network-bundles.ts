/**
 * The hosts a common ecosystem's package manager fetches from, so that `allowed-domains: npm` is
 * all a Node repository needs for `npm ci`. Each is the registry's API host and the host its
 * archives are served from; nothing that accepts uploads beyond what the registry itself does.
 */
export const networkBundles = {
  npm: ['registry.npmjs.org', 'registry.yarnpkg.com'],
  pypi: ['pypi.org', 'files.pythonhosted.org'],
  crates: ['index.crates.io', 'static.crates.io', 'crates.io'],
  go: ['proxy.golang.org', 'sum.golang.org'],
  maven: ['repo.maven.apache.org', 'repo1.maven.org'],
  rubygems: ['rubygems.org', 'index.rubygems.org'],
  github: ['github.com', 'api.github.com', 'codeload.github.com', 'objects.githubusercontent.com'],
} as const satisfies Record<string, readonly string[]>;

export type NetworkBundle = keyof typeof networkBundles;
