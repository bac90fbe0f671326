/* Wine 8.0 has no bcryptprimitives.dll; the Rust extensions of cryptography and bcrypt import
 * ProcessPrng from it (Rust's std on Windows 10+). Windows lane only: never shipped. */
#include <windows.h>
#include <bcrypt.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    return BCryptGenRandom(NULL, data, (ULONG)len, BCRYPT_USE_SYSTEM_PREFERRED_RNG) == 0;
}
