// The arrow keys step through a replay: each follows the page's own link
// to the previous or next move, so the page works the same without this.
document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const rel = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[e.key];
  const link = rel && document.querySelector(`a[data-step="${rel}"]`);
  if (link) {
    e.preventDefault();
    window.location.assign(link.href);
  }
});
