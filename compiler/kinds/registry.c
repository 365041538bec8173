/*
 * registry.c: the kinds the compiler knows, one line each (sema/kind.h).
 * The order is the order the core runs their hooks in: the body kinds first
 * (in the order an unknown body type's message lists them), expression points
 * before substructures (their forces reach the substructures' coordinates),
 * the element families in the order messages list those that act along a line.
 * A new kind: its file under kinds/, and its line here.
 */
#include "registry.h"

/* each kind's table, defined in its file */
extern const sema_kind sema_kind_point_mass, sema_kind_rigid2d, sema_kind_flexible2d,
    sema_kind_rigid3d, sema_kind_flexible3d, sema_kind_point, sema_kind_substructure,
    sema_kind_chain, sema_kind_interface, sema_kind_joint2d, sema_kind_joint3d, sema_kind_point3d, sema_kind_spring,
    sema_kind_damper, sema_kind_friction, sema_kind_contact, sema_kind_clearance;

const sema_kind *const sema_kinds[] = {
    &sema_kind_point_mass,
    &sema_kind_rigid2d,
    &sema_kind_flexible2d,
    &sema_kind_rigid3d,
    &sema_kind_flexible3d,
    &sema_kind_point3d,
    &sema_kind_point,
    &sema_kind_substructure,
    &sema_kind_chain,
    &sema_kind_interface,
    &sema_kind_joint2d,
    &sema_kind_joint3d,
    &sema_kind_spring,
    &sema_kind_damper,
    &sema_kind_friction,
    &sema_kind_contact,
    &sema_kind_clearance,
    NULL,
};
