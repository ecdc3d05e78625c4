// The search's scorer (html_search_scorer in _config.yml; Sphinx copies this file into language_data.js).
// Sphinx's default scores, with two changes of order: a library symbol (an autodoc object of the API
// reference) ranks below every page, and the API reference's own pages (book/api, book/api/*) rank below the
// book's other pages. A reader searching "weight decay" wants the chapters first, not the functions named
// weight_decay_*; a symbol is still found, after them. Within each of the three groups the order is Sphinx's.
var Scorer = {
  // result: [docname, title, anchor, descr, score, filename]; descr is set for a symbol only.
  // Page scores are at most about 100 (an index entry), symbol scores at most 26: the offsets keep the
  // groups apart.
  score: (result) => {
    const [docname, , , descr, score] = result;
    if (descr) return score - 2000;
    if (docname === "book/api" || docname.startsWith("book/api/")) return score - 1000;
    return score;
  },

  // Sphinx's defaults (sphinx/themes/basic/static/searchtools.js), unchanged.
  // query matches the full name of an object
  objNameMatch: 11,
  // or matches in the last dotted part of the object name
  objPartialMatch: 6,
  // Additive scores depending on the priority of the object
  objPrio: {
    0: 15, // used to be importantResults
    1: 5, // used to be objectResults
    2: -5, // used to be unimportantResults
  },
  //  Used when the priority is not in the mapping.
  objPrioDefault: 0,
  // query found in title
  title: 15,
  partialTitle: 7,
  // query found in terms
  term: 5,
  partialTerm: 2,
};
