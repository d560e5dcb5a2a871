-- Brand names are unique per organization, compared without case and surrounding spaces.
-- Existing duplicates are kept, not merged: the oldest brand of each clash keeps its name and each
-- later one is renamed "<name> (#<id>)" (unique, since ids are), with its detections, logos and
-- tags untouched, so nothing is lost and the organization can merge or rename them by hand.
UPDATE brands b SET name = btrim(b.name) || ' (#' || b.id || ')'
  WHERE EXISTS (
    SELECT 1 FROM brands o
     WHERE o.organization_id = b.organization_id
       AND lower(btrim(o.name)) = lower(btrim(b.name))
       AND o.id < b.id
  );
CREATE UNIQUE INDEX brands_organization_name ON brands (organization_id, lower(btrim(name)));
