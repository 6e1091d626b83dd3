/* kube-dump-analyzer report tables: sort, filter, page and deep links, offline.
   A table is a div.kt holding a table and either a data block of every row (a large
   table, of which the page shows the first rows without scripts) or all its rows in the HTML.
   Dump values are only ever set as text (textContent), never parsed as markup. */
(function () {
  "use strict";
  var PAGE = 50;
  var tables = [];

  function decodeColumn(c, n) {
    if (c.d) { var out = new Array(n); for (var i = 0; i < n; i++) { out[i] = c.c[i] < 0 ? null : c.d[c.c[i]]; } return out; }
    return c.v;
  }

  function age(s) {
    if (s === null || s === undefined) { return "–"; }
    var a = Math.abs(s), sign = s < 0 ? "-" : "";
    if (a >= 86400) { return sign + Math.floor(a / 86400) + "d"; }
    if (a >= 3600) { return sign + Math.floor(a / 3600) + "h"; }
    if (a >= 60) { return sign + Math.floor(a / 60) + "m"; }
    return sign + a + "s";
  }

  function shown(v, type) {
    if (v === null || v === undefined || v === "") { return "–"; }
    if (v === true) { return "yes"; }
    if (v === false) { return "no"; }
    if (type === "age") { return age(v); }
    return String(v);
  }

  function number(text) {
    var m = /^\s*(-?[\d.]+)\s*([a-zA-Z%]*)/.exec(text || "");
    if (!m) { return null; }
    var x = parseFloat(m[1]), u = m[2];
    var units = { s: 1, m: 60, h: 3600, d: 86400, y: 31536000, Ki: 1024, Mi: 1048576, Gi: 1073741824, Ti: 1099511627776 };
    return isNaN(x) ? null : x * (units[u] || 1);
  }

  // A table's rows are gzip-compressed JSON in base64 (a 20,000-row table is ~4 MB of JSON,
  // ~0.5 MB so): inflated in the browser, from the page itself, without any request.
  function rowsOf(root) {
    var block = root.querySelector("script[type='application/x-kda-rows']");
    if (!block) { return Promise.resolve(null); }
    var bin = atob(block.textContent.trim()), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  // The header cell of each column: the last header row's cells, after the cells of earlier
  // rows that span down to it (a comparison's "rule" column beside its grouped cluster names).
  function headCells(table) {
    var rows = table.tHead.rows, last = rows[rows.length - 1];
    var spanning = [];
    for (var r = 0; r < rows.length - 1; r++) {
      Array.prototype.forEach.call(rows[r].cells, function (th) {
        if (th.rowSpan > 1 && r + th.rowSpan >= rows.length) { spanning.push(th); }
      });
    }
    return spanning.concat(Array.prototype.slice.call(last.cells));
  }

  function Table(root, spec) {
    this.root = root;
    this.table = root.querySelector("table");
    this.tbody = this.table.tBodies[0];
    this.heads = headCells(this.table);
    if (spec) {
      this.cols = spec.cols;
      var columns = spec.data.map(function (c) { return decodeColumn(c, spec.n); });
      this.rows = new Array(spec.n);
      for (var i = 0; i < spec.n; i++) {
        var row = new Array(columns.length);
        for (var j = 0; j < columns.length; j++) { row[j] = columns[j][i]; }
        this.rows[i] = row;
      }
      this.dom = null;
      this.text = null;
    } else {
      // Rows written in the page (comparison tables, short tables): sort and filter the elements.
      this.cols = this.heads.map(function (th) { return { t: th.getAttribute("data-t") || "text" }; });
      this.dom = Array.prototype.slice.call(this.tbody.rows);
      // The filter reads what the cells show, not the numbers they sort by.
      this.text = this.dom.map(function (tr) { return tr.textContent.toLowerCase(); });
      var cols = this.cols;
      this.rows = this.dom.map(function (tr) {
        return Array.prototype.map.call(tr.cells, function (td, j) {
          var v = td.hasAttribute("data-v") ? td.getAttribute("data-v") : td.textContent.trim();
          return cols[j] && cols[j].t !== "text" ? number(v) : v;
        });
      });
    }
    this.link = root.getAttribute("data-link");
    this.key = (root.getAttribute("data-key") || "").split(",").filter(Boolean).map(Number);
    var ns = root.getAttribute("data-ns");
    this.ns = ns === null || ns === "" ? -1 : Number(ns);
    this.order = null;
    this.view = this.rows.map(function (_, i) { return i; });
    this.page = 0;
    this.hit = -1;
    this.build();
    this.apply();
  }

  Table.prototype.rowText = function (i) {
    if (!this.text) {
      var cols = this.cols;
      this.text = this.rows.map(function (r) {
        return r.map(function (v, j) { return shown(v, cols[j] && cols[j].t); }).join("\u0001").toLowerCase();
      });
    }
    return this.text[i];
  };

  Table.prototype.build = function () {
    var self = this;
    var bar = document.createElement("div");
    bar.className = "kt-bar";
    this.filter = document.createElement("input");
    this.filter.type = "search";
    this.filter.placeholder = "Filter rows";
    this.filter.setAttribute("aria-label", "Filter rows");
    this.filter.addEventListener("input", function () { self.page = 0; self.apply(); });
    bar.appendChild(this.filter);
    if (this.ns >= 0) {
      this.select = document.createElement("select");
      this.select.setAttribute("aria-label", "Namespace");
      var counts = {};
      this.rows.forEach(function (r) { var k = r[self.ns] || ""; counts[k] = (counts[k] || 0) + 1; });
      var all = document.createElement("option");
      all.value = "\u0000";
      all.textContent = "all namespaces";
      this.select.appendChild(all);
      Object.keys(counts).sort().forEach(function (k) {
        var o = document.createElement("option");
        o.value = k;
        o.textContent = (k || "(none)") + " (" + counts[k] + ")";
        self.select.appendChild(o);
      });
      this.select.addEventListener("change", function () { self.page = 0; self.apply(); });
      bar.appendChild(this.select);
    }
    this.status = document.createElement("span");
    this.status.className = "kt-status";
    this.status.setAttribute("aria-live", "polite");
    bar.appendChild(this.status);
    this.prev = document.createElement("button");
    this.prev.type = "button";
    this.prev.textContent = "‹ previous";
    this.prev.addEventListener("click", function () { self.page -= 1; self.render(); });
    this.next = document.createElement("button");
    this.next.type = "button";
    this.next.textContent = "next ›";
    this.next.addEventListener("click", function () { self.page += 1; self.render(); });
    bar.appendChild(this.prev);
    bar.appendChild(this.next);
    // before the table, or before the box it scrolls in (a comparison's wide tables): the bar stays in view
    var at = this.table;
    while (at.parentNode !== this.root) { at = at.parentNode; }
    this.root.insertBefore(bar, at);
    var note = this.root.querySelector(".kt-note");
    if (note) { note.hidden = true; }
    this.heads.forEach(function (th, j) {
      th.classList.add("kt-sortable");
      th.setAttribute("tabindex", "0");
      th.setAttribute("title", "Sort by this column");
      var go = function () { self.sort(j); };
      th.addEventListener("click", function (e) { if (!e.target.closest("a")) { go(); } });
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
    });
  };

  Table.prototype.sort = function (j) {
    var desc = this.order && this.order[0] === j && !this.order[1];
    this.order = [j, desc];
    var rows = this.rows, t = this.cols[j] && this.cols[j].t, sign = desc ? -1 : 1;
    var numeric = t === "num" || t === "age";
    var idx = this.rows.map(function (_, i) { return i; });
    idx.sort(function (a, b) {
      var x = rows[a][j], y = rows[b][j];
      var xn = x === null || x === undefined || x === "", yn = y === null || y === undefined || y === "";
      if (xn || yn) { return xn === yn ? a - b : (xn ? 1 : -1); }  // empty cells last either way
      var c;
      if (numeric) { c = x - y; } else {
        x = String(x); y = String(y);
        c = x < y ? -1 : (x > y ? 1 : 0);
      }
      return c === 0 ? a - b : c * sign;
    });
    this.sorted = idx;
    this.heads.forEach(function (th, k) {
      th.setAttribute("aria-sort", k === j ? (desc ? "descending" : "ascending") : "none");
    });
    this.apply();
  };

  Table.prototype.apply = function () {
    var q = this.filter.value.trim().toLowerCase();
    var ns = this.select ? this.select.value : "\u0000";
    var base = this.sorted || this.rows.map(function (_, i) { return i; });
    var self = this;
    // "column=value" keeps the rows whose column shows exactly that value (incident=I1).
    var exact = /^([a-z_]+)=(.*)$/.exec(q), col = -1;
    if (exact) {
      for (var j = 0; j < this.cols.length; j++) {
        if (this.cols[j].k === exact[1] || this.heads[j].textContent.trim().toLowerCase() === exact[1]) { col = j; }
      }
    }
    this.view = base.filter(function (i) {
      if (ns !== "\u0000" && (self.rows[i][self.ns] || "") !== ns) { return false; }
      if (col >= 0) {
        return shown(self.rows[i][col], self.cols[col].t).toLowerCase() === exact[2];
      }
      return !q || self.rowText(i).indexOf(q) >= 0;
    });
    this.render();
  };

  Table.prototype.render = function () {
    var pages = Math.max(1, Math.ceil(this.view.length / PAGE));
    this.page = Math.min(Math.max(this.page, 0), pages - 1);
    var start = this.page * PAGE, end = Math.min(start + PAGE, this.view.length);
    var body = document.createElement("tbody");
    for (var k = start; k < end; k++) { body.appendChild(this.rowElement(this.view[k])); }
    this.table.replaceChild(body, this.tbody);
    this.tbody = body;
    var total = this.rows.length;
    this.status.textContent = (this.view.length ? (start + 1) + "–" + end + " of " : "0 of ") +
      this.view.length + (this.view.length !== total ? " matching (" + total + " rows)" : " rows");
    this.prev.disabled = this.page === 0;
    this.next.disabled = this.page >= pages - 1;
  };

  Table.prototype.rowElement = function (i) {
    var tr;
    if (this.dom) { tr = this.dom[i]; } else {
      tr = document.createElement("tr");
      var row = this.rows[i], cols = this.cols;
      for (var j = 0; j < row.length; j++) {
        var td = document.createElement("td"), c = cols[j], v = row[j];
        td.textContent = shown(v, c.t);
        var cls = c.t === "num" || c.t === "age" ? "num" : (c.w ? "wrap" : "");
        if (c.m && v !== null && c.m[String(v)]) { cls += " " + c.m[String(v)]; }
        if (v === null || v === undefined) { cls += " muted"; }
        if (cls) { td.className = cls; }
        tr.appendChild(td);
      }
    }
    if (i === this.hit) { tr.classList.add("kt-hit"); } else { tr.classList.remove("kt-hit"); }
    return tr;
  };

  Table.prototype.keyOf = function (i) {
    var row = this.rows[i];
    return this.key.map(function (j) { return row[j] === null ? "" : String(row[j]); }).join("/");
  };

  Table.prototype.open = function (key) {
    for (var i = 0; i < this.rows.length; i++) {
      if (this.keyOf(i) === key) {
        this.filter.value = "";
        if (this.select) { this.select.value = "\u0000"; }
        this.hit = i;
        this.apply();
        this.page = Math.floor(this.view.indexOf(i) / PAGE);
        this.render();
        var details = this.root.closest("details");
        if (details) { details.open = true; }
        var tr = this.tbody.querySelector(".kt-hit");
        if (tr) { tr.scrollIntoView({ block: "center" }); }
        return true;
      }
    }
    return false;
  };

  function follow() {
    var hash;
    try { hash = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; }
    var cut = hash.indexOf("/");
    if (cut < 0) { return; }
    var what = hash.slice(0, cut), rest = hash.slice(cut + 1);
    if (what === "filter") {  // #filter/<table>/<text>: the table filtered by that text
      var at = rest.indexOf("/"), id = at < 0 ? rest : rest.slice(0, at);
      tables.forEach(function (t) {
        if (t.root.id === "t-" + id) {
          t.filter.value = at < 0 ? "" : rest.slice(at + 1);
          t.page = 0;
          t.apply();
          t.root.scrollIntoView({ block: "start" });
        }
      });
      return;
    }
    for (var k = 0; k < tables.length; k++) {
      if (tables[k].link === what && tables[k].open(rest)) { return; }
    }
  }

  function start() {
    var roots = Array.prototype.slice.call(document.querySelectorAll("div.kt"));
    Promise.all(roots.map(function (root) {
      return rowsOf(root).then(function (spec) { tables.push(new Table(root, spec)); });
    })).then(function () {
      document.documentElement.classList.add("kt-ready");
      follow();
      window.addEventListener("hashchange", follow);
    }, function (e) {
      document.documentElement.classList.add("kt-failed");
      throw e;
    });
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
}());
