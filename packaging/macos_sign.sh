#!/usr/bin/env bash
# macOS: makes dist/sbctune.app signable, signs it (Developer ID when CODESIGN_IDENTITY is set,
# ad hoc otherwise), verifies the signature, notarizes and staples when App Store Connect API
# credentials are given, and re-packs the zips that packaging/build.sh made.
#   CODESIGN_IDENTITY   "Developer ID Application: ..." (a keychain holding it must be unlocked)
#   NOTARY_KEY_FILE, NOTARY_KEY_ID, NOTARY_ISSUER   App Store Connect API key (file, not argv)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
APP=dist/sbctune.app
CLI=dist/sbctune-cli
IDENTITY=${CODESIGN_IDENTITY:--}
[ -d "$APP" ] || { echo "no $APP: run packaging/build.sh first" >&2; exit 1; }

# codesign takes dotted folders where code lives for broken bundles (see the script).
python3 packaging/macos_codesign_fix.py "$APP"

if [ "$IDENTITY" = "-" ]; then
  sign=(codesign --force --sign -)
else
  sign=(codesign --force --timestamp --options runtime --sign "$IDENTITY")
fi
# Inside out: every Mach-O file first, then the bundle that seals them.
while IFS= read -r -d '' file; do
  if file -b "$file" | grep -q 'Mach-O'; then "${sign[@]}" "$file"; fi
done < <(find "$APP/Contents" "$CLI" -type f -print0)
"${sign[@]}" "$APP"
codesign --verify --deep --strict --verbose=2 "$APP"
codesign --verify --strict --verbose=2 "$CLI/sbctune"

if [ "$IDENTITY" != "-" ] && [ -n "${NOTARY_KEY_FILE:-}" ]; then
  ditto -c -k --keepParent "$APP" dist/notarize.zip
  xcrun notarytool submit dist/notarize.zip --key "$NOTARY_KEY_FILE" \
    --key-id "$NOTARY_KEY_ID" --issuer "$NOTARY_ISSUER" --wait
  rm -f dist/notarize.zip
  xcrun stapler staple "$APP"
  xcrun stapler validate "$APP"
  spctl --assess --type execute --verbose=2 "$APP"
else
  echo "not notarized (needs a Developer ID identity and NOTARY_KEY_FILE)"
fi

version=$(.venv/bin/python -c "import sys; sys.path.insert(0, 'packaging'); import spec_support; print(spec_support.version())")
arch=$(uname -m)
rm -f "dist/sbctune-$version-macos-$arch.zip" "dist/sbctune-cli-$version-macos-$arch.zip"
(cd dist && ditto -c -k --sequesterRsrc --keepParent sbctune.app "sbctune-$version-macos-$arch.zip")
(cd dist && zip -qry "sbctune-cli-$version-macos-$arch.zip" sbctune-cli)
echo "signed and packed: dist/sbctune-$version-macos-$arch.zip"
