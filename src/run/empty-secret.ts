/**
 * Why an API key input is empty, said where the key is missing. GitHub passes `${{ secrets.NAME }}`
 * as an empty string when no secret has that name (a typo, a secret of another repository, one never
 * created) and to runs it gives no secrets at all, so "no API key is configured" is most often a
 * workflow that does set it, from a secret GitHub did not hand over.
 */
export function emptySecretHint(): string {
  return (
    'If the workflow sets it from a secret, that secret is missing or misnamed: GitHub passes an unknown secret as an empty string. ' +
    'Check that the name in `${{ secrets.NAME }}` matches a secret of this repository or its organisation (Settings → Secrets and variables → Actions), ' +
    'and that the run is not one GitHub gives no secrets to (a pull request from a fork, or one by Dependabot).'
  );
}
