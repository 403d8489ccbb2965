/**
 * The Fulfilment screen's print stylesheet: the app's chrome and the screen's controls are hidden, the packing
 * lists print on A4 or Letter (the browser's paper; margins fit both) with each group on its own page (a list with
 * no boxes is left out), or, in the
 * "Packing slips" print mode, one slip per page. The mode is the `data-print-mode` of the screen's root; on the
 * screen it also shows the slips in place of the lists. On a phone's screen the lists are cards (paper keeps the
 * tables). Members' names link to their member page on the screen and print as plain names.
 */
export const PRINT_CSS = `
.packing-slips, .packing-cards { display: none; }
@media screen and (max-width: 47.99em) {
  .packing-table { display: none !important; }
  .packing-cards { display: flex; }
}
@media screen {
  [data-print-mode="slips"] .packing-lists { display: none; }
  [data-print-mode="slips"] .packing-slips { display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: 0.75rem; }
  [data-print-mode="slips"] .packing-slip { border: 1px solid #d4d4d8; border-radius: 6px; padding: 1rem; }
}
@media print {
  @page { margin: 12mm; }
  html, body { background: #fff !important; }
  .admin-chrome, .no-print { display: none !important; }
  main { padding: 0 !important; max-width: none !important; }
  .packing-root { gap: 0 !important; }
  .packing-panel { border: 0 !important; padding: 0 !important; }
  .packing-group { break-inside: avoid-page; }
  .packing-group + .packing-group, .packing-section + .packing-section { break-before: page; }
  .packing-row { break-inside: avoid; }
  .packing-section[data-empty] { display: none !important; }
  [data-print-mode="slips"] .packing-lists { display: none !important; }
  [data-print-mode="slips"] .packing-slips { display: block !important; }
  .packing-slip { break-after: page; border: 1px solid #999; border-radius: 6px; padding: 8mm; }
  .packing-slip:last-child { break-after: auto; }
  .member-link { color: inherit !important; text-decoration: none !important; }
}
`;
