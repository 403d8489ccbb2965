import { Box, Button, Field, Heading, Input, NativeSelect, SimpleGrid, Stack, Text, Textarea } from "@chakra-ui/react";
import { useEffect, useState } from "react";
import { useDocumentTitle } from "../lib/useDocumentTitle.ts";
import { PageContent } from "../ui/PageShell.tsx";

/** Spec §9 contact timings: simulated submit 1.5 s, success shown 5 s. */
export const CONTACT_SEND_MS = 1500;
export const CONTACT_SUCCESS_MS = 5000;
const SUBJECTS = [
  { value: "general", label: "General inquiry" },
  { value: "support", label: "Support" },
  { value: "billing", label: "Billing" },
  { value: "partnership", label: "Partnership" },
  { value: "feature", label: "Feature request" },
  { value: "other", label: "Other" },
];

type Phase = "idle" | "sending" | "sent";

/** /contact: the contact form. Submitting is simulated; no request is made. */
export default function ContactRoute() {
  useDocumentTitle("Contact");
  const [form, setForm] = useState({ name: "", email: "", company: "", subject: "", message: "" });
  const [phase, setPhase] = useState<Phase>("idle");
  useEffect(() => {
    if (phase === "sending") {
      const t = setTimeout(() => {
        setPhase("sent");
        setForm({ name: "", email: "", company: "", subject: "", message: "" });
      }, CONTACT_SEND_MS);
      return () => clearTimeout(t);
    }
    if (phase === "sent") {
      const t = setTimeout(() => setPhase("idle"), CONTACT_SUCCESS_MS);
      return () => clearTimeout(t);
    }
  }, [phase]);
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => setForm({ ...form, [k]: e.target.value });
  return (
    <PageContent>
      <Box maxW="2xl" mx="auto">
        <Heading as="h1" size={{ base: "2xl", md: "3xl" }} mb="2">
          Contact us
        </Heading>
        <Text color="fg.muted" mb="8">
          Questions about a membership, a partnership or your account? Send us a note.
        </Text>
        <Box p={{ base: "5", md: "8" }} rounded="2xl" bg="bg" borderWidth="1px" shadow="sm">
          <form onSubmit={(e) => { e.preventDefault(); if (phase === "idle") setPhase("sending"); }}>
            <Stack gap="4">
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                <Field.Root required>
                  <Field.Label>Name <Field.RequiredIndicator /></Field.Label>
                  <Input name="name" autoComplete="name" value={form.name} onChange={set("name")} />
                </Field.Root>
                <Field.Root required>
                  <Field.Label>Email <Field.RequiredIndicator /></Field.Label>
                  <Input name="email" type="email" autoComplete="email" value={form.email} onChange={set("email")} />
                </Field.Root>
              </SimpleGrid>
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                <Field.Root>
                  <Field.Label>Company (optional)</Field.Label>
                  <Input name="company" autoComplete="organization" value={form.company} onChange={set("company")} />
                </Field.Root>
                <Field.Root required>
                  <Field.Label>Subject <Field.RequiredIndicator /></Field.Label>
                  <NativeSelect.Root>
                    <NativeSelect.Field name="subject" value={form.subject} onChange={set("subject")}>
                      <option value="">Choose a subject…</option>
                      {SUBJECTS.map((s) => <option key={s.value} value={s.value}>{s.label}</option>)}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </Field.Root>
              </SimpleGrid>
              <Field.Root required>
                <Field.Label>Message <Field.RequiredIndicator /></Field.Label>
                <Textarea name="message" rows={6} value={form.message} onChange={set("message")} />
              </Field.Root>
              {phase === "sent" && (
                <Box role="status" p="4" rounded="lg" bg="green.50" borderWidth="1px" borderColor="green.200" color="green.900">
                  Thank you! Your message has been sent. We'll get back to you within 24 hours.
                </Box>
              )}
              <Box>
                <Button type="submit" colorPalette="orange" size="lg" disabled={phase === "sending"}>
                  {phase === "sending" ? "Sending..." : "Send Message"}
                </Button>
              </Box>
            </Stack>
          </form>
        </Box>
      </Box>
    </PageContent>
  );
}
