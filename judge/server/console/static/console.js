// The console's only script: clicking a judge pass highlights the transcript turns it cites.
// Served from the package (script-src 'self'); it reads data attributes and toggles classes,
// it never writes HTML.
(function () {
  "use strict";

  function citedTurns(button) {
    return (button.getAttribute("data-cited") || "").split(" ").filter(function (t) { return t !== ""; });
  }

  function clearHighlights() {
    document.querySelectorAll(".event.cited").forEach(function (e) { e.classList.remove("cited"); });
    document.querySelectorAll(".pass[aria-pressed='true']").forEach(function (b) {
      b.setAttribute("aria-pressed", "false");
    });
  }

  function highlight(button) {
    var wasPressed = button.getAttribute("aria-pressed") === "true";
    clearHighlights();
    if (wasPressed) { return; }
    button.setAttribute("aria-pressed", "true");
    var first = null;
    citedTurns(button).forEach(function (turn) {
      document.querySelectorAll(".event[data-turn='" + CSS.escape(turn) + "']").forEach(function (e) {
        e.classList.add("cited");
        if (first === null) { first = e; }
      });
    });
    if (first !== null) { first.scrollIntoView({ block: "nearest", behavior: "smooth" }); }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button.pass") : null;
    if (button) { highlight(button); }
  });
})();
