/**
 * The document's only script, inline: highlights the current section in the contents, adds copy
 * buttons to code blocks and collapses the contents on narrow screens. Nothing depends on it.
 */
export const SCRIPT = `
(function () {
  var nav = document.querySelector('nav.toc');
  var details = nav && nav.querySelector('details');
  var narrow = window.matchMedia('(max-width: 1099px)');
  function fold() { if (details) details.open = !narrow.matches; }
  fold();
  if (narrow.addEventListener) narrow.addEventListener('change', fold);
  if (details) nav.addEventListener('click', function (e) { if (narrow.matches && e.target.tagName === 'A') details.open = false; });
  var links = {};
  Array.prototype.forEach.call(document.querySelectorAll('nav.toc a'), function (a) { links[a.getAttribute('href').slice(1)] = a; });
  var current;
  function mark(id) {
    var link = links[id];
    if (!link || link === current) return;
    if (current) { current.classList.remove('current'); current.removeAttribute('aria-current'); }
    link.classList.add('current'); link.setAttribute('aria-current', 'location'); current = link;
  }
  if ('IntersectionObserver' in window) {
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) { if (entry.isIntersecting) mark(entry.target.parentElement.id); });
    }, { rootMargin: '0px 0px -70% 0px' });
    Array.prototype.forEach.call(document.querySelectorAll('main section > :first-child'), function (h) { seen.observe(h); });
  }
  Array.prototype.forEach.call(document.querySelectorAll('figure.code'), function (figure) {
    var pre = figure.querySelector('pre');
    if (!pre) return;
    var button = document.createElement('button');
    button.type = 'button'; button.className = 'copy'; button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy this code');
    button.addEventListener('click', function () {
      function done() { button.textContent = 'Copied'; setTimeout(function () { button.textContent = 'Copy'; }, 1500); }
      if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(pre.innerText).then(done); return; }
      var range = document.createRange(); range.selectNodeContents(pre);
      var selection = window.getSelection(); selection.removeAllRanges(); selection.addRange(range);
      if (document.execCommand('copy')) done();
    });
    figure.insertBefore(button, figure.firstChild);
  });
})();
`;
