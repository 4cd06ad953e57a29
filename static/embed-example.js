// The parent side of an embed: size each playground frame to the height it
// reports. The same lines as the snippet the Embed panel writes.
addEventListener('message', function (e) {
  if (!e.data || e.data.type !== 'lease-playground:height') return;
  document.querySelectorAll('iframe').forEach(function (f) {
    if (f.contentWindow === e.source) {
      f.style.height = e.data.height + 'px';
      f.dataset.reportedHeight = String(e.data.height);
    }
  });
});
