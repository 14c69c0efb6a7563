"""El lado del profesor: la corrección y las órdenes que mueven el curso con nbgrader."""
