-- The cards in title order on disk.
--
-- Every page of presets/browse reads its cards from preset_card by id, and
-- most pages are a run of the title order: every visible preset, a title
-- prefix, a country, a goal, a common vertical. Written in the order of the
-- ids (or of an import file), the 50 cards of such a page lie on about 50
-- heap pages; written in title order, on a few. Where shared_buffers
-- cannot hold the whole table, each heap page that is not there is read
-- from the operating system, so the order decides how many reads a page
-- costs.
--
-- preset_card_reorder() writes every card again in the order of its
-- preset's title and id, in one statement (the rows it deletes are the
-- rows it inserts, so readers see the same cards before and after). It
-- takes SHARE ROW EXCLUSIVE on preset_card: reads go on, and writers of
-- cards (the triggers of presets, reviews, conditions, labels) wait until
-- the transaction ends. The old row versions are left for VACUUM, and new
-- cards go where there is room. An import that holds at least a tenth of
-- the catalogue's presets calls it (PresetCardReorderAfterImport); an
-- operator may call it at any time.
--
-- A fillfactor of 90 keeps a tenth of each page free, so that a card made
-- again (a review, a new label) stays on its page as a HOT update instead
-- of moving to the end of the table.

-- +goose Up
ALTER TABLE preset_card SET (fillfactor = 90);

-- +goose StatementBegin
CREATE FUNCTION preset_card_reorder() RETURNS void
    LANGUAGE sql
    AS $$
    LOCK TABLE preset_card IN SHARE ROW EXCLUSIVE MODE;
    WITH gone AS (
        DELETE FROM preset_card RETURNING *
    )
    INSERT INTO preset_card
    SELECT gone.*
    FROM gone
    LEFT JOIN preset AS p ON p.id = gone.id
    ORDER BY p.title, gone.id;
$$;
-- +goose StatementEnd

SELECT preset_card_reorder();

-- +goose Down
DROP FUNCTION preset_card_reorder();
ALTER TABLE preset_card RESET (fillfactor);
