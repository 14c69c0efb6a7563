// El formgrader de nbgrader con las notas que cuentan (course/formgrader). Cada página lo carga después
// de su guion de nbgrader y antes de que termine de cargarse:
// - las tablas (DataTables), en español;
// - las notas, las de exports/notas.csv: ya con el descuento por retraso, y «no corregido», con su
//   motivo, donde no hay nota. Se leen de la API del curso antes de que nbgrader pinte sus tablas (se
//   envuelve su función load…) y se ponen después de cada `render` de sus vistas. Si el profesor
//   corrige o pone una nota desde el formgrader, se vuelven a leer;
// - en la página de corregir, la nota de la entrega arriba, y los atajos de teclado con las teclas en español.
(function () {
  "use strict";

  // La API del curso, al lado de este guion: …/curso-harness/formgrader/js/curso.js → …/api/notas
  var API = document.currentScript.src.replace(/\/js\/curso\.js.*$/, "/api/notas");

  // ------------------------------------------------------------------ DataTables, en español

  if (window.jQuery && $.fn.dataTable) {
    $.extend(true, $.fn.dataTable.defaults, {
      language: {
        emptyTable: "No hay nada que mostrar",
        info: "Filas _START_ a _END_ de _TOTAL_",
        infoEmpty: "Ninguna fila",
        infoFiltered: "(de _MAX_ en total)",
        lengthMenu: "Mostrar _MENU_ filas",
        loadingRecords: "Cargando…",
        processing: "Un momento…",
        search: "Buscar:",
        zeroRecords: "Ninguna fila coincide con la búsqueda",
        decimal: ",",
        thousands: ".",
        paginate: { first: "Primera", last: "Última", next: "Siguiente", previous: "Anterior" },
        aria: { sortAscending: ": ordenar de menor a mayor", sortDescending: ": ordenar de mayor a menor" }
      }
    });
  }

  // ------------------------------------------------------------------ las notas que cuentan

  var datos = {};
  var pedidas = null;

  function leer() {
    pedidas = $.ajax({ url: API, dataType: "json", cache: false }).done(function (d) { datos = d || {}; });
    return pedidas;
  }

  function numero(n) {
    return Number(n).toLocaleString("es-ES", { maximumFractionDigits: 2 });
  }

  function fila(tarea, estudiante) {
    var t = datos[tarea];
    return t && t.estudiantes ? t.estudiantes[estudiante] : undefined;
  }

  // «8 / 12 (10 − 2 por retraso)» en `celda`, a partir de {puntos, descuento, nota}.
  function pintarNota(celda, f, maximo) {
    celda.empty().addClass("curso-nota-que-cuenta");
    celda.attr("data-order", maximo ? f.nota / maximo : 0);
    celda.append($("<span/>").addClass("curso-nota").text(numero(f.nota) + " / " + numero(maximo)));
    if (f.descuento > 0) {
      celda.append(" ", $("<span/>").addClass("curso-descuento")
        .text("(" + numero(f.puntos) + " − " + numero(f.descuento) + " por retraso)"));
    }
  }

  function pintarSinNota(celda, f) {
    celda.empty().attr("data-order", -1);
    if (f.estado === "no corregido") {
      celda.append($("<span/>").addClass("label label-danger curso-no-corregido").text("no corregido"));
      if (f.motivo) {
        celda.append(" ", $("<span/>").addClass("curso-motivo").text(f.motivo));
      }
    } else {
      celda.append($("<span/>").addClass("curso-sin-entrega").text("sin entrega"));
    }
  }

  function pintar(celda, f, maximo) {
    if (f.estado === "corregido") {
      pintarNota(celda, f, maximo);
    } else {
      pintarSinNota(celda, f);
    }
  }

  function sinNombre(modelo) {
    return modelo.get("last_name") === null && modelo.get("first_name") === null;
  }

  // Después de cada render de las vistas de `Vista` (una clase de Backbone de la página), `ajustar(vista)`.
  function envolver(nombre, ajustar) {
    var Vista = window[nombre];
    if (!Vista || !Vista.prototype.render) {
      return;
    }
    var render = Vista.prototype.render;
    Vista.prototype.render = function () {
      var hecho = render.apply(this, arguments);
      this.$el.children("td").each(function () { decimalesEnEspanol($(this)); });
      ajustar(this);
      return hecho;
    };
  }

  // Las columnas que pinta nbgrader («11.33 / 12»), con la coma decimal, como las nuestras.
  function decimalesEnEspanol(celda) {
    var texto = celda.text();
    if (/^\d+(\.\d+)? \/ \d+(\.\d+)?$/.test(texto)) {
      celda.text(texto.split(" / ").map(function (n) { return numero(parseFloat(n)); }).join(" / "));
    }
  }

  // Que nbgrader pinte sus tablas cuando ya se tienen las notas (o se sabe que no se pueden leer).
  function esperarNotas(nombre) {
    var cargar = window[nombre];
    if (typeof cargar === "function") {
      window[nombre] = function () {
        var args = arguments;
        leer().always(function () { cargar.apply(window, args); });
      };
    }
  }

  // manage_submissions: las entregas de una tarea.
  envolver("SubmissionUI", function (vista) {
    var m = vista.model;
    if (sinNombre(m)) {
      (vista.$student_name.find("a").length ? vista.$student_name.find("a") : vista.$student_name).text("(sin nombre)");
    }
    var f = fila(m.get("name"), m.get("student"));
    if (!f) {
      return;
    }
    if (f.estado === "no corregido") {  // el estado dice «no corregido»; la nota, por qué
      vista.$status.empty().attr("data-order", -1)
        .append($("<span/>").addClass("label label-danger curso-no-corregido").text("no corregido"));
      vista.$score.empty().attr("data-order", -1).append($("<span/>").addClass("curso-motivo").text(f.motivo || ""));
    } else {
      pintar(vista.$score, f, datos[m.get("name")].maximo);
    }
  });

  // manage_students: la clase, con la nota de todas las tareas juntas.
  envolver("StudentUI", function (vista) {
    var m = vista.model;
    if (sinNombre(m)) {
      vista.$name.find("a").text("(sin nombre)");
    }
    if (!Object.keys(datos).length) {
      return;
    }
    var total = { estado: "sin entrega", puntos: 0, descuento: 0, nota: 0 }, maximo = 0, pendientes = [];
    var corregidas = 0;
    for (var tarea in datos) {
      var f = datos[tarea].estudiantes[m.get("id")];
      maximo += datos[tarea].maximo;
      if (f && f.estado === "corregido") {
        corregidas += 1;
        total.puntos += f.puntos;
        total.descuento += f.descuento;
        total.nota += f.nota;
      } else if (f && f.estado === "no corregido") {
        pendientes.push((Object.keys(datos).length > 1 ? tarea + ": " : "") + f.motivo);  // con una tarea, sin su nombre
      }
    }
    if (corregidas) {
      total.estado = "corregido";
      pintarNota(vista.$score, total, maximo);
      if (pendientes.length) {
        vista.$score.append(" ", $("<span/>").addClass("curso-motivo").text("sin corregir: " + pendientes.join("; ")));
      }
    } else {
      pintarSinNota(vista.$score, pendientes.length ? { estado: "no corregido", motivo: pendientes.join("; ") } : total);
    }
  });

  // manage_students/<estudiante>: sus tareas.
  envolver("StudentSubmissionUI", function (vista) {
    var tarea = vista.model.get("name");
    var f = fila(tarea, window.student_id);
    if (!f) {
      return;
    }
    if (f.estado !== "corregido") {
      vista.$name.text(tarea + (f.estado === "no corregido" ? " (no corregido)" : " (sin entrega)"));
    }
    pintar(vista.$score, f, datos[tarea].maximo);
  });

  // manage_students/<estudiante>/<tarea>: sus cuadernos.
  envolver("StudentSubmittedNotebookUI", function (vista) {
    var f = fila(window.assignment_id, window.student_id);
    var c = f && f.cuadernos ? f.cuadernos[vista.model.get("name")] : undefined;
    if (c) {
      pintarNota(vista.$score, c, vista.model.get("max_score"));
    } else if (f && f.estado !== "corregido") {
      pintarSinNota(vista.$score, f);
    }
  });

  // gradebook: la media de cada tarea (la de las entregas corregidas, como el informe de la clase).
  envolver("AssignmentUI", function (vista) {
    if (!vista.$score || !vista.$score.length) {
      return;  // la de «Tareas» no tiene notas
    }
    var t = datos[vista.model.get("name")];
    if (t) {
      pintarMedia(vista.$score, t.media, t.maximo, t.corregidas);
    }
  });

  // gradebook/<tarea>: la media de cada cuaderno.
  envolver("NotebookUI", function (vista) {
    var t = datos[window.assignment_id];
    if (t && t.cuadernos && vista.model.get("name") in t.cuadernos) {
      pintarMedia(vista.$avg_score, t.cuadernos[vista.model.get("name")], vista.model.get("max_score"), t.corregidas);
    }
  });

  function pintarMedia(celda, media, maximo, corregidas) {
    celda.empty();
    if (media === null || media === undefined) {
      celda.attr("data-order", -1).append($("<span/>").addClass("curso-sin-entrega").text("ninguna corregida"));
      return;
    }
    celda.attr("data-order", maximo ? media / maximo : 0);
    celda.append($("<span/>").addClass("curso-nota").text(numero(media) + " / " + numero(maximo)),
      " ", $("<span/>").addClass("curso-motivo").text("(" + corregidas + (corregidas === 1 ? " corregida)" : " corregidas)")));
  }

  // gradebook/<tarea>/<cuaderno>: cada entrega de ese cuaderno. Un cuaderno roto que se ha corregido con el
  // botón «Corregir» (nbgrader lo corrige como sin contestar) sigue «no corregido», como en el CSV.
  envolver("SubmittedNotebookUI", function (vista) {
    var f = fila(window.assignment_id, vista.model.get("student"));
    var c = f && f.cuadernos ? f.cuadernos[window.notebook_id] : undefined;
    if (c) {
      pintarNota(vista.$score, c, vista.model.get("max_score"));
    } else if (f && f.estado !== "corregido") {
      pintarSinNota(vista.$score, f);
    }
  });

  ["loadAssignments", "loadSubmissions", "loadStudents", "loadStudentSubmissions", "loadStudentSubmittedNotebooks",
    "loadNotebooks", "loadSubmittedNotebooks"].forEach(esperarNotas);

  // Tras corregir, generar o poner una nota desde el formgrader, las notas han cambiado: se releen y se
  // vuelven a pintar las filas (y la nota de la página de corregir).
  $(document).ajaxComplete(function (evento, xhr, opciones) {
    var metodo = (opciones.type || "GET").toUpperCase();
    if (metodo !== "GET" && /\/formgrader\/api\//.test(opciones.url || "")) {
      leer().done(function () {
        (window.views || []).forEach(function (v) { v.render(); });
        notaDeLaEntrega();
      });
    }
  });

  // ------------------------------------------------------------------ las ventanas de error, con su porqué

  // Lo que nbgrader deja en «El error, en detalle» y lo que quiere decir, en español: la ventana lo dice
  // delante del detalle, que es el de Python tal cual.
  var PORQUES = [
    [/submission_secret\.txt/, "Publicar la retroalimentación la deja en el intercambio del hub, y solo sirve " +
      "para las entregas recogidas de allí (nbgrader collect). Estas no vienen del hub: súbela a tu LMS con " +
      "exports/moodle-retroalimentacion.zip (lo explica docs/lms.md), o dásela a cada uno desde feedback/."],
    [/Unwritable directory, please contact your instructor/, "No hay intercambio del hub en este curso, o no se puede escribir en él: " +
      "publicar y recoger son para un curso en un JupyterHub (docs/hub.md). Con un LMS, las entregas se recogen " +
      "con nbgrader zip_collect (README, «Collect»)."]
  ];

  if (typeof window.createLogModal === "function") {
    var ventanaDeRegistro = window.createLogModal;
    window.createLogModal = function (id, title, message, log, error) {
      var porque = PORQUES.filter(function (p) { return p[0].test((error || "") + "\n" + (log || "")); })
        .map(function (p) { return p[1]; });
      var modal = ventanaDeRegistro.apply(this, arguments);
      if (porque.length) {
        modal.find(".modal-body > div > p").first()
          .after($("<p/>").addClass("curso-porque alert alert-info").text(porque.join(" ")));
      }
      return modal;
    };
  }

  // ------------------------------------------------------------------ la página de corregir una entrega

  function notaDeLaEntrega() {
    var sitio = $("#curso-nota");
    if (!sitio.length || typeof submission_id === "undefined") {
      return;
    }
    var t = datos[window.assignment_id];
    var f = t ? t.estudiantes[window.student_id] : undefined;
    sitio.empty();
    if (f) {
      var nota = $("<span/>");
      pintar(nota, f, t.maximo);
      sitio.append("· nota de la entrega: ", nota);
    }
  }

  if (document.getElementById("curso-nota") !== null || typeof submission_id !== "undefined") {
    $(function () { leer().done(notaDeLaEntrega); });
  }

  var TECLAS = { control: "Ctrl", ctrl: "Ctrl", shift: "Mayús", escape: "Esc", enter: "Intro", tab: "Tab" };

  function teclas(atajo) {
    return atajo.split(/-(?=.)/).map(function (t) { return TECLAS[t] || t.toUpperCase(); }).join(" + ");
  }

  if (window.KeyboardManager) {
    var ayuda = KeyboardManager.prototype.showHelp;
    KeyboardManager.prototype.showHelp = function () {
      var hecho = ayuda.apply(this, arguments);
      $("#help-dialog .shortcut-key").each(function () { $(this).text(teclas($(this).text())); });
      return hecho;
    };
  }
})();
