/** Spec §7 member account routes: profile, password, and the card renewals charge. */
import { z } from "zod";
import { finishCardUpdate, startCardUpdate } from "../api/billing/cards.ts";
import * as users from "../api/users/service.ts";
import { Ok, type Router } from "./router.ts";

const AddressJson = z.object({
  fullName: z.string(), phone: z.string(), street: z.string(), apt: z.string(), city: z.string(), state: z.string(), zip: z.string(), country: z.string(),
});
const profileJson = (u: { username?: string; email: string | null; name: string | null; phone: string | null; address: unknown }) => {
  const address = u.address ? users.addressSchema.safeParse(u.address) : null;
  return { email: u.email, name: u.name, phone: u.phone, address_json: address?.success ? address.data : null };
};
const Profile = z.object({
  email: z.string().nullable(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  address_json: AddressJson.nullable().describe("The saved address (an object)"),
});

export function profileRoutes(r: Router) {
  r.add({
    method: "GET",
    path: "/my/profile/basic",
    tag: "member",
    summary: "The member's contact details and saved address",
    access: "member",
    response: Profile.extend({ username: z.string() }),
    handler: async (ctx) => {
      const user = await users.me(ctx);
      return { username: user.username, ...profileJson(user) };
    },
  });

  r.add({
    method: "POST",
    path: "/my/profile",
    tag: "member",
    summary: "Updates the member's profile; fields left out are kept",
    access: "member",
    body: z.object({
      profile: z.object({
        email: z.string().max(254).optional(),
        name: z.string().max(200).optional(),
        phone: z.string().max(50).optional(),
        address: users.addressPatchSchema.optional(),
      }),
    }),
    response: Profile,
    handler: async (ctx, { body }) => profileJson(await users.updateProfile(ctx, body.profile)),
  });

  r.add({
    method: "POST",
    path: "/my/change-password",
    tag: "member",
    summary: "Changes the password and ends every session (log in again)",
    access: "member",
    body: z.object({ currentPassword: z.string().max(500).default(""), newPassword: z.string().max(500).default("") }),
    response: Ok,
    errors: [429],
    handler: async (ctx, { body }) => {
      await users.changePassword(ctx, body);
      return { ok: true as const };
    },
  });

  r.add({
    method: "POST",
    path: "/my/payments/update-card/start",
    tag: "member",
    summary: "Card update, step 1: a setup intent for the card form",
    access: "member",
    response: z.object({ client_secret: z.string(), setup_intent_id: z.string() }),
    handler: async (ctx) => {
      const started = await startCardUpdate(ctx);
      return { client_secret: started.clientSecret, setup_intent_id: started.setupIntentId };
    },
  });

  r.add({
    method: "POST",
    path: "/my/payments/update-card/finalize",
    tag: "member",
    summary: "Card update, step 2: the confirmed card becomes the one renewals charge",
    access: "member",
    body: z.object({ setup_intent_id: z.string({ error: "Missing setup_intent_id" }).min(1, "Missing setup_intent_id").max(200) }),
    response: Ok.extend({ card: z.object({ brand: z.string(), last4: z.string(), exp_month: z.number().int(), exp_year: z.number().int() }) }),
    handler: async (ctx, { body }) => {
      const card = await finishCardUpdate(ctx, { setupIntentId: body.setup_intent_id });
      return { ok: true as const, card: { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear } };
    },
  });
}
