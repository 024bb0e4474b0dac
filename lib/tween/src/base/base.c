/* base.h: version and result names. */
#include "maul/tween/base.h"

mtwnVersion mtwnGetVersion(void) {
    mtwnVersion v = {MTWN_VERSION_MAJOR, MTWN_VERSION_MINOR, MTWN_VERSION_PATCH};
    return v;
}

const char* mtwnGetResultName(mtwnResult result) {
    switch (result) {
        case mtwn_success: return "mtwn_success";
        case mtwn_errorInvalid: return "mtwn_errorInvalid";
        case mtwn_errorStale: return "mtwn_errorStale";
        case mtwn_errorState: return "mtwn_errorState";
        case mtwn_errorCapacity: return "mtwn_errorCapacity";
        case mtwn_errorLimit: return "mtwn_errorLimit";
        case mtwn_errorBusy: return "mtwn_errorBusy";
        case mtwn_errorVersion: return "mtwn_errorVersion";
    }
    return "mtwn_unknownResult";
}
