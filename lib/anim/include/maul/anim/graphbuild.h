/* Maul Anim: graphbuild.h
 *
 * Building graphs offline. For now this header holds only maniGraphForm:
 * why a JSON text form (of a graph, a mirror map or a retarget map) does not
 * follow its form, the value a maniBuildReasonForm refusal gives as its
 * other. The graph builder's functions and sources land here with the graph
 * area.
 */
#ifndef MAUL_ANIM_GRAPHBUILD_H
#define MAUL_ANIM_GRAPHBUILD_H

#include "maul/anim/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How JSON text does not follow its form: the other of a
 * maniBuildReasonForm refusal, whose item is the byte offset of the wrong
 * member, value or object. Frozen values. */
typedef enum maniGraphForm {
    maniGraphFormNone = 0,      /* no form error */
    maniGraphFormMember = 1,    /* a member its object does not take (offset: its key) */
    maniGraphFormType = 2,      /* a value of a type its member does not take (offset: the value) */
    maniGraphFormMissing = 3,   /* a required member left out (offset: the object) */
    maniGraphFormFormat = 4,    /* a "format" that is not the form's name (offset: the value) */
    maniGraphFormVersion = 5,   /* a "version" this library does not read (mani_errorVersion; offset: the value) */
    maniGraphFormValue = 6,     /* a value out of its range: an unknown keyword, a number past binary32, a count of numbers not the member's */
    maniGraphFormName = 7,      /* a name that names nothing (a bone the skeleton lacks, ...; offset: the string) */
    maniGraphFormDuplicate = 8  /* an item listed twice where once is allowed (offset: the second) */
} maniGraphForm;

#ifdef __cplusplus
}
#endif

#endif /* MAUL_ANIM_GRAPHBUILD_H */
