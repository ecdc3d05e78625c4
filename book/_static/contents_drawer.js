/* The article header's list button opens the page's contents in the theme's drawer. The theme (pydata) binds
   only the first .secondary-toggle of a page, the one in the top bar, which is hidden at every width where the
   article header's is shown (below 1200 px, and on a page with a wide figure at any width: book.css), so
   that button did nothing. A click on it is handed to the first one, whose handler opens the drawer. */
(function () {
  "use strict";
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest(".bd-header-article .secondary-toggle");
    var first = document.querySelector(".secondary-toggle");
    if (!button || !first || first === button) return;
    e.preventDefault();
    first.click();
  });
})();
