-- Baseline for enrichment-fetch: one aggregate pass over every row of the tables the job reads,
-- touching each column it reads (docs/CONTRACT.md §3.3: contacts with their owner's region, phones and
-- emails, verified user phones, the lookup cache and existing enrichments). Its target is
-- lookups per second against the stub; this ratio is for information.
-- Output: table | rows | a checksum that forces each value to be read.
SELECT 'users', count(*), total(id) + total(length(region)) + total(length(phone_e164)) + total(phone_verified) + total(deleted_at) FROM users
UNION ALL SELECT 'contacts', count(*), total(id) + total(user_id) + total(length(edited_fields)) + total(rin_user_id) + total(deleted_at) FROM contacts
UNION ALL SELECT 'contact_phones', count(*), total(contact_id) + total(length(raw)) FROM contact_phones
UNION ALL SELECT 'contact_emails', count(*), total(contact_id) + total(length(address)) FROM contact_emails
UNION ALL SELECT 'enrichment_lookups', count(*), total(key_high) + total(key_low) + total(check_high) + total(check_low)
  + total(length(response)) + total(fetched_at) + total(expires_at) FROM enrichment_lookups
UNION ALL SELECT 'contact_enrichments', count(*), total(contact_id) + total(length(field)) + total(length(source))
  + total(length(value)) + total(confidence) FROM contact_enrichments;
