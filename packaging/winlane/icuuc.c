/* Wine 8.0 has no icuuc.dll, which Qt6Core imports (Windows 10's system ICU) for its text
 * codecs. This stub opens no converter, so Qt falls back to its built-in codecs. Windows lane
 * only: never shipped. */
#include <stddef.h>

typedef int UErrorCode;
#define U_FILE_ACCESS_ERROR 4

void *ucnv_open(const char *name, UErrorCode *err)
{
    (void)name;
    if (err) *err = U_FILE_ACCESS_ERROR;
    return NULL;
}
int ucnv_countAvailable(void) { return 0; }
const char *ucnv_getAvailableName(int n) { (void)n; return NULL; }
const char *ucnv_getStandardName(const char *n, const char *s, UErrorCode *err)
{
    (void)n; (void)s;
    if (err) *err = U_FILE_ACCESS_ERROR;
    return NULL;
}
/* Never reached without an open converter: present only so Qt6Core.dll resolves. */
void ucnv_close(void *c) { (void)c; }
void ucnv_reset(void *c) { (void)c; }
int ucnv_getMaxCharSize(void *c) { (void)c; return 1; }
const char *ucnv_getName(void *c, UErrorCode *err) { (void)c; if (err) *err = U_FILE_ACCESS_ERROR; return NULL; }
void ucnv_getToUCallBack(void) {}
void ucnv_getFromUCallBack(void) {}
void ucnv_setToUCallBack(void) {}
void ucnv_setFromUCallBack(void) {}
void ucnv_cbToUWriteUChars(void) {}
void ucnv_cbFromUWriteUChars(void) {}
void ucnv_toUnicode(void) {}
void ucnv_fromUnicode(void) {}
int ucnv_toUCountPending(void *c, UErrorCode *err) { (void)c; (void)err; return 0; }
int ucnv_fromUCountPending(void *c, UErrorCode *err) { (void)c; (void)err; return 0; }
void UCNV_FROM_U_CALLBACK_SUBSTITUTE(void) {}
void UCNV_TO_U_CALLBACK_SUBSTITUTE(void) {}
