/* err.c - names for the skip reasons, generated from the one X-macro list. */
#include "codeobj/codeobj.h"

static const char *const names[HV_CO_ERR__COUNT] = {
    [HV_CO_OK] = "HV_CO_OK",
#define NAME_(id, text) [HV_CO_ERR_##id] = "HV_CO_ERR_" #id,
    HV_CO_ERRORS(NAME_)
#undef NAME_
};

static const char *const texts[HV_CO_ERR__COUNT] = {
    [HV_CO_OK] = "no error",
#define TEXT_(id, text) [HV_CO_ERR_##id] = text,
    HV_CO_ERRORS(TEXT_)
#undef TEXT_
};

const char *hv_co_err_name(enum hv_co_err e)
{
    return (unsigned)e < HV_CO_ERR__COUNT ? names[e] : "HV_CO_ERR_?";
}

const char *hv_co_err_text(enum hv_co_err e)
{
    return (unsigned)e < HV_CO_ERR__COUNT ? texts[e] : "unknown reason";
}
