/*
 * kind.h: the table a kind fills (a body kind, a substructure, a chain, an
 * interface, a joint family, an expression point, an element family, the
 * clearance joints' geometry): what the sema core calls
 * it for. The core names no kind: it finds them in the list it is given
 * (kinds/registry.c, handed over by jit/compile.c through sema_lower) and
 * calls what each fills in, in the list's order. Every operation is optional.
 * docs/architecture.md, "Where a new kind goes".
 */
#ifndef JNT_SEMA_KIND_H
#define JNT_SEMA_KIND_H

#include "front/ast.h"
#include "lower/ir.h"

typedef struct sema sema;
typedef struct sym sym;
typedef struct body body;
typedef struct sval sval;
typedef struct elem elem;
typedef struct scope scope;
typedef struct elem_site elem_site;
typedef struct joint joint;

/* A setting of an element (`law = ...`, `area = 2 mm^2`) by name; for a geometry's,
 * the element family (ELEM_*) it is of (its value's dimension is checked where it
 * is evaluated). */
typedef struct elem_setting {
    const char *name;
    int family;
} elem_setting;

enum { SEMA_DRAW_GAP = 1, SEMA_DRAW_SLIP };

typedef struct sema_kind {
    const char *name;      /* as the language spells it ("rigid2d", "substructure") */
    /* declarations: symbols of kind `sym` (enum sym_kind) in declaration pass `pass`
     * (0 bodies, 1 substructures and chains, 2 points and interfaces), in the
     * order of the files' declarations */
    int sym, pass;
    void (*declare)(sema *S, sym *s);
    /* a body kind (`body NAME : name(...)`): one instance, its mass (pass 3, before the
     * motions) and its check after them */
    void (*declare_body)(sema *S, body *b);
    void (*body_mass)(sema *S, body *b);
    void (*body_check)(sema *S, const body *b);
    /* a body kind whose bodies gravity pulls (`simulate { gravity = ... }`: their mass
     * times g on their first coordinates, x, y[, z]) */
    int weighs;
    /* members and indices of its values (value kinds vk[0..nvk), enum vkind; for a body
     * kind, of its bodies after their coordinates and markers): 0 and *out, -1 after an
     * error, 1 when `name` is none of its own (index: when base is not indexable) */
    int vk[3], nvk;
    int (*member)(sema *S, sval base, const char *name, jnt_loc loc, sval *out);
    int (*index)(sema *S, sval base, long i, jnt_loc loc, sval *out);
    /* after declaration pass 1 (substructures): bind what refers to them */
    void (*bind)(sema *S);
    /* pass 3, after the elements' forces: hand forces to coordinates */
    void (*assemble)(sema *S);
    /* the acceleration of dof di as a0 + alpha F, F the force of element `skip` on it:
     * 0, -1 after an error, 1 when di is not its own */
    int (*dof_accel)(sema *S, int di, int skip, ex_id *a0, ex_id *alpha);
    /* in a model with sliding interfaces, the acceleration of dof di from the runtime's
     * discrete states; 1 when di is not its own */
    int (*point_accel)(sema *S, int di, sval *out);
    /* pass 4: a symbol's values that need the equations (after assembly) */
    void (*eval)(sema *S, const sym *s);
    /* a multibody model's checks (before its DAE is formed) */
    void (*mb_check)(sema *S);
    /* after the prescribed motions are eliminated: the last rewriting of the model */
    void (*gather)(sema *S);
    /* last, once the model is whole */
    void (*check)(sema *S);
    void (*release)(sema *S);
    /* an element family (`KEYWORD NAME between A and B { settings }`, KEYWORD's
     * ELEM_* of front/ast.h in `elem`): its settings (NULL-ended; the core adds the
     * geometries' and 'radius'), whether between two markers it acts along the line
     * between them, what it reads of its settings before its ends are placed
     * (prepare: el->ec; 0 or -1 after an error) and its force from its site
     * (sema/core.h: el->force and its quantities, or el->force V_ERR after an error) */
    int elem;
    const elem_setting *settings;
    int on_line;
    /* how the pictures draw its elements (sema/scene.c): SEMA_DRAW_GAP (a point with its
     * gap and force), SEMA_DRAW_SLIP (its force and slip rate, with the gap's point), 0 not */
    int draw;
    int (*elem_prepare)(sema *S, const scope *sc, elem *el, elem_site *site);
    void (*elem_force)(sema *S, const scope *sc, elem *el, elem_site *site);
    /* a geometry (clearance joints): the settings it adds to element families (each
     * naming its family), and, when an element has one of them, the dof it acts on
     * (elem_place: the dof, or -2 after an error) in place of the core's */
    const elem_setting *geom_settings;
    int (*elem_place)(sema *S, const scope *sc, elem *el, elem_site *site);
    /* a joint family (`joint NAME : TYPE(A, B, ...)`, read by the core, sema/joints.c):
     * the joints between markers in joint_dim dimensions (2, or 3: one marker is
     * spatial); joint_build: j's relative coordinate, drive and multipliers (j->kind,
     * name, decl, a, b set; 0 or -1 after an error); joint_rows: its constraint rows
     * into c[] (j->nl, when the DAE is formed); joint_member: NAME.q of joint ji */
    int joint_dim;
    int (*joint_build)(sema *S, joint *j, const ast *axis, const ast *axis_b, const ast *drive);
    void (*joint_rows)(sema *S, const joint *j, ex_id *c);
    int (*joint_member)(sema *S, int ji, const char *name, jnt_loc loc, sval *out);
} sema_kind;

#endif
