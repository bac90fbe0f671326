# Builds the sbctune app for Windows with PyInstaller: dist\sbctune\ (sbctune-gui.exe, the
# desktop app; sbctune.exe, the command line) and dist\sbctune-<version>-windows-<arch>.zip.
#   powershell -ExecutionPolicy Bypass -File packaging\build.ps1
# Needs Python 3.10+ (python.org installer, "py" launcher). Makes .venv when missing.
# Optional iperf3 binary: put iperf3.exe (and its DLLs) in packaging\iperf3\windows\ first.
$ErrorActionPreference = "Stop"
$Root = Split-Path -Parent $PSScriptRoot
Set-Location $Root

$Py = Join-Path $Root ".venv\Scripts\python.exe"
if (-not (Test-Path $Py)) {
    py -3 -m venv .venv
    if ($LASTEXITCODE -ne 0) { throw "could not create .venv (install Python 3.10+ from python.org)" }
}
# asyncssh talks to Pageant through pywin32; keyring uses pywin32-ctypes (its own dependency).
& $Py -m pip install --disable-pip-version-check -q -e ".[dev]" pywin32
if ($LASTEXITCODE -ne 0) { throw "pip install failed" }

$Version = & $Py -c "import sys; sys.path.insert(0, 'packaging'); import spec_support; print(spec_support.version())"
& $Py -m PyInstaller packaging\sbctune.spec --noconfirm --clean `
    --distpath (Join-Path $Root "dist") --workpath (Join-Path $Root "build\pyinstaller")
if ($LASTEXITCODE -ne 0) { throw "PyInstaller failed" }

$Arch = if ([Environment]::Is64BitOperatingSystem) { "x64" } else { "x86" }
$Zip = Join-Path $Root "dist\sbctune-$Version-windows-$Arch.zip"
if (Test-Path $Zip) { Remove-Item $Zip }
Compress-Archive -Path (Join-Path $Root "dist\sbctune") -DestinationPath $Zip
& (Join-Path $Root "dist\sbctune\sbctune.exe") --version
if ($LASTEXITCODE -ne 0) { throw "the built sbctune.exe does not run" }
Write-Host "built: $Zip"
