import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);

// src/scope/network-bundles.ts
var networkBundles = {
  npm: ["registry.npmjs.org", "registry.yarnpkg.com"],
  pypi: ["pypi.org", "files.pythonhosted.org"],
  crates: ["index.crates.io", "static.crates.io", "crates.io"],
  go: ["proxy.golang.org", "sum.golang.org"],
  maven: ["repo.maven.apache.org", "repo1.maven.org"],
  rubygems: ["rubygems.org", "index.rubygems.org"],
  github: ["github.com", "api.github.com", "codeload.github.com", "objects.githubusercontent.com"]
};

export {
  networkBundles
};
